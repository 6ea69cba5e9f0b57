// Package dice rolls the server's dice so that players can check them.
//
// Every resolution step of a game has its own seed, derived from a per-game
// secret. Before orders for a step are due, players are sent the step's
// commitment, the SHA-256 of the seed; after the step the seed is revealed.
// Each roll is then a pure function of a seed and the roll's number, written
// so that a player can redo it with sha256sum and shell arithmetic:
//
//	h=$(printf '%s:%d' SEED 7 | sha256sum | cut -c1-12)   # roll number 7
//	echo $(( 0x$h % 6 + 1 ))                               # a d6
//
// Under scheme 2 (see Scheme) the rolls of a step come from its roll seed,
// SHA-256("SEED:DIGEST"), where DIGEST is the digest of the step's inputs
// (every order it resolves, see Part): nobody, the holder of the game's
// secret included, can know a roll before the step's last order is in.
// Rolls only some players may see come from a stream of their own, whose
// seed derives from the step's hidden seed, which the public seed does not
// reveal (the public seed is the SHA-256 of the hidden one).
//
// The first 48 bits of SHA-256("SEED:k") are x. If x falls in the last partial
// block of 2^48 (x >= 2^48 - 2^48 mod sides) the draw is rejected, to avoid
// modulo bias, and SHA-256("SEED:k:1"), "SEED:k:2", ... are tried in turn; for
// any die up to d100 a rejection happens less than once in a trillion rolls.
// No wall clock, no global generator, no map order: the same seed gives the
// same rolls on every machine and every Go version.
package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"orrery/engine/lang"
)

// Roll is one recorded die roll.
type Roll struct {
	N       int      `json:"n"`     // number of the roll within its stream (scheme 1: its step), from 1
	Sides   int      `json:"sides"` // 6 for a d6
	Value   int      `json:"value"` // 1..Sides
	Purpose string   `json:"purpose"`
	To      []string `json:"to,omitempty"` // players who may see it; empty: everyone
	// Stream is the key (StreamKey) of the hidden stream the roll came
	// from; empty for the public rolls, and for every roll of scheme 1.
	Stream string `json:"stream,omitempty"`
	// Msg is Purpose as a message (see lang.Msg), written in the
	// reader's language in reports; Purpose is then its English.
	// RollMsg records it.
	Msg *lang.Msg `json:"msg,omitempty"`
}

// String formats a roll the way reports show it: "#3 Red fires at Mars:
// d6 = 5", or "#2 [ann] ann's spy: d6 = 4" for roll 2 of the dice that
// only ann sees.
func (r Roll) String() string {
	if r.Stream != "" {
		return fmt.Sprintf("#%d [%s] %s: d%d = %d", r.N, r.Stream, r.Purpose, r.Sides, r.Value)
	}
	return fmt.Sprintf("#%d %s: d%d = %d", r.N, r.Purpose, r.Sides, r.Value)
}

// VisibleTo reports whether player may see r. The GM ("") sees every roll.
func (r Roll) VisibleTo(player string) bool {
	if len(r.To) == 0 || player == "" {
		return true
	}
	for _, p := range r.To {
		if p == player {
			return true
		}
	}
	return false
}

// Source produces the value of roll number n (1-based) of a die with sides
// faces. Implementations must be pure functions of their construction and n.
type Source interface {
	Value(n, sides int) (int, error)
}

// Dice rolls dice from a source and records each roll with its purpose.
// A Dice is used by one goroutine, for one step.
type Dice struct {
	src   Source
	rolls []Roll
	err   error
	// Scheme 2: public counts the public rolls; hidden derives the seed
	// of an audience's stream from its key (nil: scheme 1, every roll
	// from src in one numbering).
	public  int
	hidden  func(key string) string
	streams map[string]*stream
	order   []Stream
}

type stream struct {
	src Source
	n   int
}

// Stream is the seed of the dice one audience (Key) sees in one step, and
// who that audience is. Its seed is revealed to them with the step's report
// and to everyone at the end of the game.
type Stream struct {
	Key  string   `json:"key"`
	To   []string `json:"to"`
	Seed string   `json:"seed"`
}

// New returns dice that roll every die, public or not, from the hex seed of
// one step, numbered in one sequence: scheme 1.
func New(seed string) *Dice { return &Dice{src: SeedSource(seed)} }

// NewStreams returns the dice of one step under scheme 2: public rolls come
// from rollSeed, numbered from 1; the rolls only some players may see come
// from the stream of that audience, whose seed is hidden(StreamKey(to)),
// each stream numbered from 1 on its own (so that neither the count nor the
// place of hidden rolls shows in the public numbering).
func NewStreams(rollSeed string, hidden func(key string) string) *Dice {
	return &Dice{src: SeedSource(rollSeed), hidden: hidden, streams: map[string]*stream{}}
}

// FromSource returns dice that roll from src; tests use Scripted.
func FromSource(src Source) *Dice { return &Dice{src: src} }

// Roll rolls one die with the given number of sides for a public purpose.
func (d *Dice) Roll(sides int, purpose string) int { return d.RollFor(sides, purpose) }

// RollFor rolls one die that only the players named in to may see (and the
// GM). With no names it is public.
func (d *Dice) RollFor(sides int, purpose string, to ...string) int {
	return d.roll(sides, purpose, nil, to)
}

// RollMsg is RollFor with a purpose worded as a message, for a report
// written in its reader's language.
func (d *Dice) RollMsg(sides int, m lang.Msg, to ...string) int {
	return d.roll(sides, m.English(), &m, to)
}

// ShuffleMsg is ShuffleFor with a purpose worded as a message.
func (d *Dice) ShuffleMsg(n int, m lang.Msg, swap func(i, j int), to ...string) {
	for i := n - 1; i > 0; i-- {
		j := d.RollMsg(i+1, lang.M("%s (position %d of %d)", m, i+1, n), to...) - 1
		swap(i, j)
	}
}

func (d *Dice) roll(sides int, purpose string, msg *lang.Msg, to []string) int {
	src, n, key := d.src, len(d.rolls)+1, ""
	if d.hidden != nil {
		if len(to) == 0 {
			d.public++
			n = d.public
		} else {
			key = StreamKey(to)
			st := d.streams[key]
			if st == nil {
				seed := d.hidden(key)
				st = &stream{src: SeedSource(seed)}
				d.streams[key] = st
				d.order = append(d.order, Stream{Key: key, To: audience(to), Seed: seed})
			}
			st.n++
			src, n = st.src, st.n
		}
	}
	if sides < 1 {
		d.fail(fmt.Errorf("roll #%d (%s): a die needs at least one side, not %d", n, purpose, sides))
		return 1
	}
	v, err := src.Value(n, sides)
	if err != nil {
		d.fail(fmt.Errorf("roll #%d (%s): %w", n, purpose, err))
		// Go on with values that cycle through the faces, so that a
		// rule's "re-roll ties" loop still ends and the error surfaces.
		v = (n-1)%sides + 1
	}
	d.rolls = append(d.rolls, Roll{N: n, Sides: sides, Value: v, Purpose: purpose, To: append([]string(nil), to...), Stream: key, Msg: msg})
	return v
}

// StreamKey names the audience of a hidden roll: its names, sorted and
// without repeats, joined by commas ("ann,bob"; "(gm)" for GMOnly).
func StreamKey(to []string) string { return strings.Join(audience(to), ",") }

func audience(to []string) []string {
	out := append([]string(nil), to...)
	sort.Strings(out)
	return slices.Compact(out)
}

// Streams lists the hidden streams rolled from so far, in the order of
// their first roll (none under scheme 1).
func (d *Dice) Streams() []Stream { return append([]Stream(nil), d.order...) }

// GMOnly is a viewer name no seat can have (seat names are lowercase
// letters, digits, _ and -): a roll shown only to it is hidden from every
// player, though the GM, verify and the final dice reveal still see it.
const GMOnly = "(gm)"

// RollHidden rolls a die no player sees until the game's dice are revealed:
// a shuffled deck, say.
func (d *Dice) RollHidden(sides int, purpose string) int { return d.RollFor(sides, purpose, GMOnly) }

// ShuffleFor is Shuffle whose rolls only the players named in to (and the
// GM) may see; ShuffleFor(n, purpose, swap, GMOnly) hides them from all.
func (d *Dice) ShuffleFor(n int, purpose string, swap func(i, j int), to ...string) {
	for i := n - 1; i > 0; i-- {
		j := d.RollFor(i+1, fmt.Sprintf("%s (position %d of %d)", purpose, i+1, n), to...) - 1
		swap(i, j)
	}
}

// Pick returns an index in [0, n) chosen by a die with n sides.
func (d *Dice) Pick(n int, purpose string) int { return d.Roll(n, purpose) - 1 }

// Shuffle reorders n items with a Fisher–Yates shuffle whose every swap is a
// recorded roll, so a seat order or a deck can be checked like any die.
func (d *Dice) Shuffle(n int, purpose string, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := d.Pick(i+1, fmt.Sprintf("%s (position %d of %d)", purpose, i+1, n))
		swap(i, j)
	}
}

// Rolls returns a copy of every roll so far, in order.
func (d *Dice) Rolls() []Roll { return append([]Roll(nil), d.rolls...) }

// Err is the first error met while rolling (a scripted list that ran out, a
// bad number of sides). Callers check it after a resolution.
func (d *Dice) Err() error { return d.err }

func (d *Dice) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// SeedSource draws from a hex seed as the package documentation describes.
type SeedSource string

const span = uint64(1) << 48

// Value implements Source.
func (s SeedSource) Value(n, sides int) (int, error) {
	limit := span - span%uint64(sides)
	for try := 0; try < 1000; try++ {
		msg := string(s) + ":" + strconv.Itoa(n)
		if try > 0 {
			msg += ":" + strconv.Itoa(try)
		}
		sum := sha256.Sum256([]byte(msg))
		var b [8]byte
		copy(b[2:], sum[:6])
		x := binary.BigEndian.Uint64(b[:])
		if x < limit {
			return int(x%uint64(sides)) + 1, nil
		}
	}
	return 0, fmt.Errorf("no unbiased draw in 1000 tries (cannot happen with SHA-256)")
}

// Scripted is a Source for rule tests: it returns the given values in order,
// so a test states its dice. Running out, or a value that does not fit the
// die, is an error reported by Dice.Err.
type Scripted []int

// Value implements Source.
func (s Scripted) Value(n, sides int) (int, error) {
	if n > len(s) {
		return 0, fmt.Errorf("the test scripted %d rolls and the rules asked for another (a d%d)", len(s), sides)
	}
	v := s[n-1]
	if v < 1 || v > sides {
		return 0, fmt.Errorf("scripted value %d does not fit a d%d", v, sides)
	}
	return v, nil
}

// StepSeed derives the seed of one step of a game from the game's secret:
// hex(HMAC-SHA256(secret, label)), where the caller's label names the game,
// the step and anything else that must give a fresh seed (after a GM
// rollback, a step is played again with a new seed: the old one is known).
// Knowing revealed seeds tells nothing about the seeds still to come.
func StepSeed(secret []byte, label string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(label))
	return hex.EncodeToString(m.Sum(nil))
}

// Commitment is the SHA-256 of the seed's text, in hex: what
// `printf %s SEED | sha256sum` prints.
func Commitment(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(sum[:])
}

// Check reports whether seed matches commitment, and redoes every roll from
// the seed: it returns an error naming the first roll that differs.
func Check(seed, commitment string, rolls []Roll) error {
	if commitment != "" && Commitment(seed) != commitment {
		return fmt.Errorf("seed %s does not match commitment %s", seed, commitment)
	}
	src := SeedSource(seed)
	for i, r := range rolls {
		if r.N != i+1 {
			return fmt.Errorf("roll %d is numbered %d", i+1, r.N)
		}
		v, err := src.Value(r.N, r.Sides)
		if err != nil {
			return err
		}
		if v != r.Value {
			return fmt.Errorf("roll #%d (%s): the seed gives d%d = %d, the record says %d", r.N, r.Purpose, r.Sides, v, r.Value)
		}
	}
	return nil
}
