package dice

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Scheme numbers how a game derives its dice. A game records the scheme it
// was set up under, and replay and verify use that one, so a game keeps its
// dice whatever a later server does.
//
// Scheme 1 (games that recorded none, too): the seed of step n is
// hex(HMAC-SHA256(secret, "GAME:EPOCH:n")); every roll of the step, hidden
// or not, comes from it, numbered in one sequence. Whoever knows the
// secret knows every roll in advance, and a hidden roll can be recomputed
// by anyone once the step's seed is revealed.
//
// Scheme 2: with H = hex(HMAC-SHA256(secret, "GAME:EPOCH:n")), the step's
// hidden seed,
//
//	seed      S = sha256(H)             revealed after the step
//	commitment  sha256(S)               published before the step
//	digest    D = Digest(part hashes)   the step's inputs (see Part)
//	roll seed R = sha256(S ":" D)       every public roll: SeedSource(R)
//	stream      sha256(H ":" D ":" KEY) the rolls only audience KEY sees
//	salt        sha256(H ":salt:" ID)[:32] of a hidden part (ID: its prompt)
//
// (sha256 of the text, written in lowercase hex). The digest is fixed only
// when the step's last order is in, so no roll can be known before that,
// not even by the holder of the secret; H stays secret until the game ends
// (S does not reveal it), so nobody can compute a hidden roll or a hidden
// part's salt before it is revealed to them.
const (
	Scheme1 = 1
	Scheme2 = 2
)

// sum is the lowercase hex SHA-256 of s, what `printf %s S | sha256sum`
// prints.
func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// PublicSeed is the seed revealed after a step under scheme 2: the SHA-256
// of the step's hidden seed, which it does not reveal.
func PublicSeed(hidden string) string { return sum(hidden) }

// RollSeed is the seed of a step's public rolls under scheme 2:
// sha256("SEED:DIGEST").
func RollSeed(seed, digest string) string { return sum(seed + ":" + digest) }

// StreamSeed is the seed of the rolls only the audience key may see, under
// scheme 2: sha256("HIDDEN:DIGEST:KEY").
func StreamSeed(hidden, digest, key string) string { return sum(hidden + ":" + digest + ":" + key) }

// Salt is the salt of a hidden part of a step's inputs under scheme 2: the
// first 32 hex digits of sha256("HIDDEN:salt:NAME"), where NAME is unique
// in the step (the prompt's id). Derived rather than drawn, so that replay
// gives the same salts; as unpredictable as the hidden seed, which nobody
// but the server knows before the game ends.
func Salt(hidden, name string) string { return sum(hidden + ":salt:" + name)[:32] }

// Part is one input of a step as it enters the dice under scheme 2: a head
// line naming it ("ann turn:ann sent", "bob turn:bob default", "setup
// GAME"), the salt of a hidden part, and the lines (a player's canonical
// orders). Its hash is the SHA-256 of Text: the head, "salt SALT" for a
// hidden part, then each line, every one ending in a newline, so that
//
//	printf '%s\n' 'ann turn:ann sent' 'salt 0f3…' 'MOVE 5 Sol Vega' | sha256sum
//
// gives it. A hidden part's salt and lines are shown only to To (its
// player) until the game ends; everyone gets its head and hash.
type Part struct {
	Head   string   `json:"head"`
	Hidden bool     `json:"hidden,omitempty"`
	To     []string `json:"to,omitempty"` // who may read a hidden part
	Salt   string   `json:"salt,omitempty"`
	Lines  []string `json:"lines,omitempty"`
	Hash   string   `json:"hash"`
}

// Text is what the part's hash is taken of.
func (p Part) Text() string {
	var b strings.Builder
	b.WriteString(p.Head)
	b.WriteByte('\n')
	if p.Hidden {
		b.WriteString("salt " + p.Salt + "\n")
	}
	for _, l := range p.Lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// Sealed returns p with its hash set.
func (p Part) Sealed() Part {
	p.Hash = sum(p.Text())
	return p
}

// Redacted returns p as someone who may not read it sees it: its head and
// hash only.
func (p Part) Redacted() Part {
	return Part{Head: p.Head, Hidden: p.Hidden, To: p.To, Hash: p.Hash}
}

// Readable reports whether reader may see the salt and lines of p now
// (the GM, "", always may).
func (p Part) Readable(reader string) bool {
	if !p.Hidden || reader == "" {
		return true
	}
	for _, x := range p.To {
		if x == reader {
			return true
		}
	}
	return false
}

// Digest is the digest of a step's inputs: the SHA-256 of the parts'
// hashes, in order, each ending in a newline (`printf '%s\n' H1 H2 |
// sha256sum`). No parts give the SHA-256 of nothing.
func Digest(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Hash)
		b.WriteByte('\n')
	}
	return sum(b.String())
}

// CheckStreams redoes, under scheme 2, every roll of a step from its roll
// seed and the seeds of its hidden streams: each stream (and the public
// rolls) must be numbered 1, 2, 3, … and give the recorded values. It
// returns an error naming the first roll that differs. A stream missing
// from streams cannot be checked and is an error.
func CheckStreams(rollSeed string, streams []Stream, rolls []Roll) error {
	seeds := map[string]string{"": rollSeed}
	for _, s := range streams {
		seeds[s.Key] = s.Seed
	}
	next := map[string]int{}
	for _, r := range rolls {
		seed, ok := seeds[r.Stream]
		if !ok {
			return fmt.Errorf("roll #%d%s (%s): no seed for its stream", r.N, label(r.Stream), r.Purpose)
		}
		next[r.Stream]++
		if r.N != next[r.Stream] {
			return fmt.Errorf("roll %d%s (%s) is numbered %d", next[r.Stream], label(r.Stream), r.Purpose, r.N)
		}
		v, err := SeedSource(seed).Value(r.N, r.Sides)
		if err != nil {
			return err
		}
		if v != r.Value {
			return fmt.Errorf("roll #%d%s (%s): the seed gives d%d = %d, the record says %d", r.N, label(r.Stream), r.Purpose, r.Sides, v, r.Value)
		}
	}
	return nil
}

// label is " [KEY]" for a hidden stream's roll, "" for a public one.
func label(stream string) string {
	if stream == "" {
		return ""
	}
	return " [" + stream + "]"
}
