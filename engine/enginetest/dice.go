package enginetest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/store"
)

// Sent is every step report of a game as each reader got it, in the order
// they were sent: the welcome report of step 0, then one per step. Readers
// are seat names, game.GM ("") and game.Observer.
type Sent struct {
	mu      sync.Mutex
	readers []string
	Reports map[string][]*game.Report
}

// RecordReports returns a hook that keeps, for every step a change makes,
// the report each of players, the GM and an observer gets (what the mail
// side mails them), and the Sent it fills. Pass the hook in Options.Hooks.
func RecordReports(players []string) (game.Hook, *Sent) {
	s := &Sent{readers: append([]string{game.GM, game.Observer}, players...), Reports: map[string][]*game.Report{}}
	hook := func(_ store.Tx, c *game.Change) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, st := range c.Steps {
			for _, r := range s.readers {
				rep, err := st.Report(r)
				if err != nil {
					return err
				}
				s.Reports[r] = append(s.Reports[r], rep)
			}
		}
		return nil
	}
	return hook, s
}

var hexRun = regexp.MustCompile(`[0-9a-f]{32,}`)

// CheckHiddenRolls plays the part of every player and of an observer with a
// script: from everything in the reports they were sent before the game
// ended (every hex string: seeds, commitments, digests), it derives every
// seed the README's rules could give (the string itself, SHA-256 of
// "A:B", of "A:B:AUDIENCE") and redoes, from each, the rolls of every die
// hidden from them, numbered as recorded and numbered from 1. A hidden
// stream is reported if any seed gives all of its rolls, or if a seed the
// GM's report names for it appears in what the reader got. Streams whose
// faces multiply to less than 2^40 are too short for the first test (a
// chance match is likely); the second still holds for them. It returns how
// many hidden rolls it tried to compute.
func CheckHiddenRolls(t testing.TB, sent *Sent, players []string) int {
	t.Helper()
	gm := sent.Reports[game.GM]
	type stream struct {
		step  uint64
		key   string
		to    []string
		rolls []dice.Roll
	}
	var streams []*stream
	for _, rep := range gm {
		if rep.Outcome.Over {
			continue
		}
		byKey := map[string]*stream{}
		for _, r := range rep.Rolls {
			if len(r.To) == 0 {
				continue
			}
			to := append([]string(nil), r.To...)
			sort.Strings(to)
			key := strings.Join(to, ",")
			s := byKey[key]
			if s == nil {
				s = &stream{step: rep.Step, key: key, to: to}
				byKey[key] = s
				streams = append(streams, s)
			}
			s.rolls = append(s.rolls, r)
		}
	}
	// The secrets the GM's reports name, and who may see each before the
	// end: hidden seeds (nobody), stream seeds and hidden parts' salts
	// (their audience).
	type secret struct {
		step       uint64
		what, text string
		to         []string
	}
	var secrets []secret
	for _, rep := range gm {
		if rep.Outcome.Over {
			continue
		}
		if rep.HiddenSeed != "" {
			secrets = append(secrets, secret{rep.Step, "the hidden seed", rep.HiddenSeed, nil})
		}
		for _, st := range rep.Streams {
			secrets = append(secrets, secret{rep.Step, "the seed of the dice of " + st.Key, st.Seed, st.To})
		}
		for _, p := range rep.Inputs {
			if p.Hidden {
				secrets = append(secrets, secret{rep.Step, "the salt of " + p.Head, p.Salt, p.To})
			}
		}
	}
	tried := 0
	for _, reader := range append([]string{game.Observer}, players...) {
		var material []string // every hex string the reader got
		perReport := [][]string{}
		for _, rep := range sent.Reports[reader] {
			if rep.Outcome.Over {
				continue // the end reveals everything, on purpose
			}
			data, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			found := hexRun.FindAllString(string(data), -1)
			material = append(material, found...)
			perReport = append(perReport, found)
		}
		got := map[string]bool{}
		for _, h := range material {
			got[h] = true
		}
		for _, x := range secrets {
			if x.text != "" && !contains(x.to, reader) && got[x.text] {
				who := "nobody"
				if len(x.to) > 0 {
					who = "only " + strings.Join(x.to, ", ")
				}
				t.Errorf("step %d: %s was sent %s, which %s may see before the end", x.step, name(reader), x.what, who)
			}
		}
		for _, s := range streams {
			if contains(s.to, reader) {
				continue
			}
			tried += len(s.rolls)
			bits := 0.0
			for _, r := range s.rolls {
				bits += math.Log2(float64(r.Sides))
			}
			if bits < 40 {
				continue
			}
			var candidates []string
			candidates = append(candidates, material...)
			for _, hs := range perReport {
				for _, a := range hs {
					for _, b := range hs {
						candidates = append(candidates, sha(a+":"+b), sha(a+":"+b+":"+s.key))
					}
				}
			}
			for _, c := range candidates {
				if gives(c, s.rolls, false) || gives(c, s.rolls, true) {
					t.Errorf("step %d: %s computes the %d dice hidden from them (for %s, %q...) from %s, which they were sent",
						s.step, name(reader), len(s.rolls), s.key, s.rolls[0].Purpose, c)
					break
				}
			}
		}
	}
	return tried
}

func name(reader string) string {
	if reader == game.Observer {
		return "an observer"
	}
	return reader
}

// gives reports whether seed gives every roll of rolls, numbered as
// recorded or, with renumber, from 1 in order.
func gives(seed string, rolls []dice.Roll, renumber bool) bool {
	src := dice.SeedSource(seed)
	for i, r := range rolls {
		n := r.N
		if renumber {
			n = i + 1
		}
		v, err := src.Value(n, r.Sides)
		if err != nil || v != r.Value {
			return false
		}
	}
	return true
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
