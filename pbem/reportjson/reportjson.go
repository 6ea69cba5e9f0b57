// Package reportjson is the machine-readable report every report mail
// carries as report.json, for players' own tools (as Eressea's CR and
// GalaxyNG's XML reports were): the turn, the phase, the reader's own view
// as data, what is asked of them, the deadline and the dice.
//
// The format is versioned: Version is 1. A later version may add fields;
// it raises Version only when a field changes meaning or goes away. The
// fields are documented in pbem/README.md ("report.json").
package reportjson

import (
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"orrery/engine"
	"orrery/engine/game"
)

// Version is the format's version.
const Version = 1

// Name is the attachment's file name.
const Name = "report.json"

// Report is report.json.
type Report struct {
	Version int    `json:"version"`
	Game    string `json:"game"`
	Ruleset string `json:"ruleset"`
	Title   string `json:"title"`
	// Player is the reader's seat; "" with Public for an observer.
	Player string `json:"player,omitempty"`
	Public bool   `json:"public,omitempty"`
	Step   uint64 `json:"step"`
	Turn   int    `json:"turn"`
	Phase  string `json:"phase"`
	Reason string `json:"reason,omitempty"` // why the step resolved: "all orders in", "deadline"…
	// News is what happened to the reader's own units, worlds and stores
	// (engine.Event.Concerns), then what is asked of them and by when:
	// the order the mail reads in. Events has the news first as well.
	News    []string `json:"news"`
	Prompts []Prompt `json:"prompts"`
	Waiting []string `json:"waiting,omitempty"`
	// Deadline is RFC 3339 in UTC; absent when there is none.
	Deadline string `json:"deadline,omitempty"`
	// Board and Status are the text the mail shows.
	Board  string `json:"board"`
	Status string `json:"status,omitempty"`
	// View is the reader's view as data, in the ruleset's own shape
	// (engine.ViewData); absent for rulesets that give none.
	View     any      `json:"view,omitempty"`
	Events   []string `json:"events"`
	Defaults []string `json:"defaults,omitempty"` // seats whose defaults applied
	// Hands are the seats played at this step by someone other than their
	// first player ("seat bob, played by eve").
	Hands []Hand `json:"hands,omitempty"`
	Dice  []Die  `json:"dice"`
	// Seed is this step's seed, Commitment its commitment published
	// before it (sha256 of the seed), Next the commitment to the next.
	Seed       string   `json:"seed,omitempty"`
	Commitment string   `json:"commitment,omitempty"`
	Next       string   `json:"next_commitment,omitempty"`
	Over       bool     `json:"over,omitempty"`
	Winners    []string `json:"winners,omitempty"`
	Outcome    string   `json:"outcome,omitempty"`
	// DiceSecret is revealed once the game is over.
	DiceSecret string `json:"dice_secret,omitempty"`
}

// Hand is a seat that changed hands: By is who plays it (their own name,
// else their address's local part; in an observer's report only an own
// name, absent otherwise), or Bot when the computer does.
type Hand struct {
	Seat string `json:"seat"`
	By   string `json:"by,omitempty"`
	Bot  bool   `json:"bot,omitempty"`
}

// Die is one roll the reader may see.
type Die struct {
	N       int    `json:"n"` // its number in the step, from 1
	Sides   int    `json:"sides"`
	Value   int    `json:"value"`
	Purpose string `json:"purpose"`
}

// Prompt is one thing asked of the reader.
type Prompt struct {
	ID      string `json:"id"`   // answer it again to replace the answer
	Kind    string `json:"kind"` // turn, step, choice, anytime
	Ask     string `json:"ask"`
	Default string `json:"default,omitempty"` // what applies if nothing arrives
	Blocks  bool   `json:"blocks"`            // the game waits for it
}

// Build makes report.json of r.
func Build(r *game.Report) Report {
	out := Report{Version: Version, Game: r.Game, Ruleset: r.Ruleset, Title: r.Title, Player: r.Player, Public: r.Public,
		Step: r.Step, Turn: r.Turn, Phase: r.Phase, Reason: r.Reason, Board: r.Board, Status: r.Status,
		News:   append([]string{}, r.Events[:min(r.News, len(r.Events))]...),
		Events: append([]string{}, r.Events...), Defaults: r.Defaults, Dice: []Die{}, Prompts: []Prompt{},
		Seed: r.RevealedSeed, Commitment: r.RevealedCommitment, Waiting: r.Waiting,
		Over: r.Outcome.Over, Winners: r.Outcome.Winners, Outcome: r.Outcome.Text, DiceSecret: r.DiceSecret}
	if !r.Outcome.Over {
		out.Next = r.NextCommitment
	}
	if vd, ok := r.View.(engine.ViewData); ok {
		out.View = vd.Data()
	}
	for _, h := range r.Hands {
		out.Hands = append(out.Hands, Hand{Seat: h.Seat, By: h.By, Bot: h.Bot})
	}
	for _, d := range r.Rolls {
		out.Dice = append(out.Dice, Die{N: d.N, Sides: d.Sides, Value: d.Value, Purpose: d.Purpose})
	}
	for _, p := range r.Prompts {
		out.Prompts = append(out.Prompts, Prompt{ID: p.ID, Kind: p.Kind.String(), Ask: p.Ask, Default: p.Default, Blocks: p.Kind.Blocks()})
	}
	if r.Deadline != "" {
		for _, layout := range []string{time.RFC3339, "2006-01-02 15:04 MST"} {
			if t, err := time.Parse(layout, r.Deadline); err == nil {
				out.Deadline = t.UTC().Format(time.RFC3339)
				break
			}
		}
	}
	return out
}

// Marshal is Build written as indented JSON, byte for byte as
// encoding/json's MarshalIndent(…, "", "  ") writes it (escaped <, > and
// &, sorted map keys, null for a nil slice; only invalid UTF-8, which both
// replace with U+FFFD, is written as the character rather than escaped),
// in one pass with the JSON v2
// implementation (go-json-experiment) and its v1 options: twice as fast,
// with a seventh of the allocations. Every report mail carries one, and
// in a backlog drain MarshalIndent was 6% of the daemon's CPU
// (TestMarshalAsEncodingJSONDoes, BenchmarkMarshal).
func Marshal(r *game.Report) ([]byte, error) {
	return jsonv2.Marshal(Build(r), jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "))
}
