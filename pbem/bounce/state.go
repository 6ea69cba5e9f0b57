package bounce

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/inmail"
)

// Policy says when an address is given up on: after HardLimit hard
// bounces within Window (defaults 3 and 14 days: config keys
// bounces.hard_limit and bounces.within), and how DSNs are tied to our
// mail (verp.go).
type Policy struct {
	HardLimit int
	Window    time.Duration
	// NoVERP (bounces.verp: off) sends with the bot's own address as the
	// envelope sender and reads a DSN's quoted Message-ID instead, for a
	// mailbox that cannot receive +addresses.
	NoVERP bool
	// VERPLocal and VERPDelimiter make the envelope sender
	// VERPLocal+VERPDelimiter+"b-"+token@domain (defaults: the From
	// address's local part, and "+").
	VERPLocal, VERPDelimiter string
}

// WithDefaults fills the zero fields.
func (p Policy) WithDefaults() Policy {
	if p.HardLimit <= 0 {
		p.HardLimit = 3
	}
	if p.Window <= 0 {
		p.Window = 14 * 24 * time.Hour
	}
	if p.VERPDelimiter == "" {
		p.VERPDelimiter = "+"
	}
	return p
}

// MaxEvents is how many bounces are kept per address: twice the hard
// limit, and at least 20. More say nothing more (the limit is reached
// long before), and a list that only grows made every bounce cost more.
func (p Policy) MaxEvents() int { return max(2*p.WithDefaults().HardLimit, 20) }

// maxDiagnostic bounds the remote server's words kept with an event: the
// report's sender writes them, and the GM needs one line.
const maxDiagnostic = 200

// Event is one bounce of one of our mails.
type Event struct {
	Time time.Time `json:"time"`
	Kind string    `json:"kind"` // hard or soft
	// Status and Diagnostic are the report's; Game and MessageID the
	// bounced mail's (Game "" for mail about no game).
	Status     string `json:"status,omitempty"`
	Diagnostic string `json:"diagnostic,omitempty"`
	Game       string `json:"game,omitempty"`
	MessageID  string `json:"message_id,omitempty"`
}

// State is what is known of an address's deliverability, kept in
// mail/bounces/<address>.
type State struct {
	// Events are the bounces within the policy's window, oldest first
	// (older ones are dropped as new ones come).
	Events []Event `json:"events,omitempty"`
	// Unreachable is when the address was given up on (zero: it was
	// not); Settled says every game it held a seat in was told
	// (engine/game's MarkUnreachable), so that a crash between the two
	// is finished at the next start.
	Unreachable time.Time `json:"unreachable,omitempty"`
	Settled     bool      `json:"settled,omitempty"`
	// Why is what made it unreachable: its last hard bounce's words.
	Why string `json:"why,omitempty"`
}

// Count returns the hard and soft bounces within the window.
func (s State) Count() (hard, soft int) {
	for _, e := range s.Events {
		if e.Kind == Hard.String() {
			hard++
		} else {
			soft++
		}
	}
	return hard, soft
}

// Describe is the address's state for the GM, in one phrase.
func (s State) Describe(p Policy) string {
	p = p.WithDefaults()
	hard, soft := s.Count()
	switch {
	case !s.Unreachable.IsZero():
		return fmt.Sprintf("unreachable since %s (%s): not mailed", s.Unreachable.UTC().Format("2006-01-02 15:04 MST"), s.Why)
	case hard+soft == 0:
		return "ok"
	}
	return fmt.Sprintf("bouncing: %d hard, %d soft in %s (unreachable at %d hard)", hard, soft, days(p.Window), p.HardLimit)
}

func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return lang.N(int(d/(24*time.Hour)), "day", "days")
	}
	return d.String()
}

// Key is the form addresses are kept under: the bare address as
// game.CanonAddress has it (ASCII case folded, nothing else: a look-alike
// address is another address).
func Key(addr string) string { return game.CanonAddress(inmail.Bare(addr)) }

func bucket(tx store.Tx, create bool) (store.Bucket, error) {
	return store.MailBucket(tx, store.BucketMailBounces, create)
}

// Load reads addr's state (the zero State when it never bounced).
func Load(tx store.Tx, addr string) (State, error) {
	var s State
	b, err := bucket(tx, false)
	if err != nil || b == nil {
		return s, err
	}
	if v := b.Get([]byte(Key(addr))); v != nil {
		if err := json.Unmarshal(v, &s); err != nil {
			return s, fmt.Errorf("bounces of %s: %w", addr, err)
		}
	}
	return s, nil
}

func put(tx store.Tx, addr string, s State) error {
	b, err := bucket(tx, true)
	if err != nil {
		return err
	}
	if len(s.Events) == 0 && s.Unreachable.IsZero() {
		return b.Delete([]byte(Key(addr)))
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return b.Put([]byte(Key(addr)), data)
}

// Unreachable reports whether mail to addr is stopped.
func Unreachable(tx store.Tx, addr string) bool {
	s, err := Load(tx, addr)
	return err == nil && !s.Unreachable.IsZero()
}

// Note counts one bounce of addr at ev.Time, in tx (the transaction that
// records the DSN as handled, so that a DSN read twice counts once), and
// says whether the address became unreachable with it.
//
// A mail counts once: an event for the same MessageID as one kept is
// not added, though a hard bounce replaces a soft one (delayed, then
// given up on). At most Policy.MaxEvents are kept, the soft ones dropped
// first, so one call costs the same however many came before: the DSN
// of 3,400 blocks that called it once a block made it read, sort and
// rewrite a list of thousands each time.
func Note(tx store.Tx, addr string, ev Event, p Policy) (became bool, st State, err error) {
	p = p.WithDefaults()
	st, err = Load(tx, addr)
	if err != nil {
		return false, st, err
	}
	ev.Diagnostic, ev.Status = clipString(ev.Diagnostic, maxDiagnostic), clipString(ev.Status, 16)
	kept := st.Events[:0]
	for _, e := range st.Events {
		if ev.Time.Sub(e.Time) < p.Window {
			kept = append(kept, e)
		}
	}
	st.Events = kept
	dup := -1
	if ev.MessageID != "" {
		for i, e := range st.Events {
			if strings.EqualFold(e.MessageID, ev.MessageID) {
				dup = i
			}
		}
	}
	switch {
	case dup >= 0 && (st.Events[dup].Kind == Hard.String() || ev.Kind != Hard.String()):
		return false, st, nil // counted already
	case dup >= 0:
		st.Events[dup].Kind, st.Events[dup].Status, st.Events[dup].Diagnostic = ev.Kind, ev.Status, ev.Diagnostic
	default:
		// Kept oldest first: events come in time order, so the new
		// one goes at the end unless a clock stepped back.
		i := len(st.Events)
		for i > 0 && st.Events[i-1].Time.After(ev.Time) {
			i--
		}
		st.Events = slices.Insert(st.Events, i, ev)
	}
	for len(st.Events) > p.MaxEvents() {
		drop := slices.IndexFunc(st.Events, func(e Event) bool { return e.Kind != Hard.String() })
		st.Events = slices.Delete(st.Events, max(drop, 0), max(drop, 0)+1)
	}
	if hard, _ := st.Count(); hard >= p.HardLimit && st.Unreachable.IsZero() {
		st.Unreachable, st.Settled, became = ev.Time, false, true
		st.Why = fmt.Sprintf("%s within %s, the last %s", lang.N(hard, "hard bounce", "hard bounces"), days(p.Window), strings.TrimSpace(ev.Status+" "+shorten(ev.Diagnostic)))
	}
	return became, st, put(tx, addr, st)
}

// Settle marks that every game of addr was told it is unreachable.
func Settle(tx store.Tx, addr string) error {
	st, err := Load(tx, addr)
	if err != nil || st.Unreachable.IsZero() {
		return err
	}
	st.Settled = true
	return put(tx, addr, st)
}

// Clear forgets addr's bounces: mail came from it (the player is back),
// or the GM said so. It reports whether there was anything to forget.
func Clear(tx store.Tx, addr string) (bool, error) {
	st, err := Load(tx, addr)
	if err != nil || (len(st.Events) == 0 && st.Unreachable.IsZero()) {
		return false, err
	}
	return true, put(tx, addr, State{})
}

// Unsettled lists the unreachable addresses whose games were not all told
// yet (a crash came between): the daemon finishes them.
func Unsettled(tx store.Tx) ([]string, error) {
	b, err := bucket(tx, false)
	if err != nil || b == nil {
		return nil, err
	}
	var out []string
	err = b.ForEach(func(k, v []byte) error {
		var s State
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("bounces of %s: %w", k, err)
		}
		if !s.Unreachable.IsZero() && !s.Settled {
			out = append(out, string(k))
		}
		return nil
	})
	return out, err
}

// clipString cuts s to at most n bytes, on a character boundary.
func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// shorten keeps a diagnostic to one short line for people.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if _, rest, ok := strings.Cut(s, ";"); ok && len(s) > 0 && !strings.Contains(s[:strings.Index(s, ";")], " ") {
		s = strings.TrimSpace(rest) // "smtp; 550 ..." → "550 ..."
	}
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}
