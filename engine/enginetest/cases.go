package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"orrery/engine"
	"orrery/engine/dice"
)

// Cases is one game's rule-case harness: godip keeps one runner for the
// text cases of all its variants, and so do we. A rule case is a txtar
// file: a description (the text before the first section), then sections
// run in order. The runner knows the sections every game shares:
//
//	-- dice --            the dice the rules roll, in order ("5*1" is five
//	                      1s); every scripted die must be rolled, no more
//	-- turn ann --        ann's answer to her open prompt of that kind,
//	-- step ann --        resolved alone from a stored state (Marshal and
//	-- choice ann --      LoadState first), as the engine does; "timeout"
//	-- anytime ann --     is a choice whose deadline passed (its default)
//	-- timeout ann --
//	-- orders ann --      ann's orders for the next "resolve" (without a
//	-- resolve --         "resolve": her blocking prompt, else her anytime
//	                      prompt, answered at once); "resolve" answers every
//	                      blocking prompt together, "" for a player who
//	                      sent nothing
//	-- want --            Dump of the position, rewritten with Update
//	-- events --          lines each found in some event so far; "@ann
//	                      text": in an event for ann alone; "!text": in no
//	                      event
//	-- errors --          "LINE: substring", one a line: the last
//	                      submission's parse errors, exactly these; it is
//	                      then not resolved
//
// and the game adds its own (a position, "setup"; its checks) in Sections,
// which may also replace any of the above.
type Cases struct {
	// Ruleset loads states for the round trip before each resolution.
	Ruleset engine.Ruleset
	// Sections are the game's own sections by first word: a position
	// ("setup"), game-specific checks or steps. A handler that checks
	// something calls c.Checked.
	Sections map[string]func(c *Case, args []string, text string)
	// Dump writes a position compactly for "want"; nil if the game has
	// no "want" section of this kind.
	Dump func(engine.State) string
	// Update rewrites "want" sections with what the rules give (the
	// game's -update flag).
	Update bool
	// Submissions names the game's own sections that submit orders
	// (through Case.Parse), so that an "errors" section applies to the
	// last of them; "orders" and the built-in kinds always do.
	Submissions []string
}

// Case is one rule case being run.
type Case struct {
	T *testing.T
	// State is the position; a "setup" handler sets it.
	State engine.State
	// Events are every event so far, in order.
	Events []engine.Event
	// Script is the case's dice.
	Script dice.Scripted

	file     string
	h        *Cases
	d        *dice.Dice
	pending  map[string]string
	checks   int
	errors   string // the "errors" section, for the last submission
	last     int    // the index of the last submission section
	at       int    // the index of the section running
	rejected bool
}

// Run runs every case matching glob (relative to the package) as a subtest.
func (h Cases) Run(t *testing.T, glob string) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule cases match %s: %v", glob, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		t.Run(name, func(t *testing.T) { h.runFile(t, file) })
	}
}

// submissionKinds are the built-in submission sections and the prompt
// kind each answers.
var submissionKinds = map[string]engine.PromptKind{"turn": engine.KindTurn, "step": engine.KindStep,
	"choice": engine.KindChoice, "timeout": engine.KindChoice, "anytime": engine.KindAnytime}

func (h *Cases) runFile(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &Case{T: t, file: file, h: h, pending: map[string]string{}, last: -1}
	for i, f := range ar.Files {
		w := strings.Fields(f.Name)
		if len(w) == 0 {
			t.Fatalf("a section with no name")
		}
		_, custom := h.Sections[w[0]]
		_, kind := submissionKinds[w[0]]
		switch {
		case w[0] == "dice" && !custom:
			c.Script = append(c.Script, ScriptDice(t, string(f.Data))...)
		case w[0] == "errors":
			c.errors = string(f.Data)
		case w[0] == "orders" && !hasSection(ar, "resolve"), kind, contains(h.Submissions, w[0]):
			c.last = i
		}
	}
	for i, f := range ar.Files {
		c.at = i
		w := strings.Fields(f.Name)
		text := string(f.Data)
		if fn, ok := h.Sections[w[0]]; ok {
			fn(c, w[1:], text)
			continue
		}
		switch w[0] {
		case "dice", "errors":
			// read before the run
		case "want":
			if h.Dump == nil {
				t.Fatalf("this game has no want section")
			}
			c.needState("want")
			c.Checked()
			got := h.Dump(c.State)
			if h.Update {
				ar.Files[i].Data = []byte(got)
				continue
			}
			if strings.TrimSpace(got) != strings.TrimSpace(text) {
				t.Errorf("position after:\n%s\nwant:\n%s\nevents:\n%s", got, text, EventText(c.Events))
			}
		case "events":
			c.Checked()
			c.CheckEvents(text)
		case "orders":
			if len(w) != 2 {
				t.Fatalf("section %q: write orders <player>", f.Name)
			}
			if hasSection(ar, "resolve") {
				c.pending[w[1]] = text
				continue
			}
			c.Submit(w[1], text)
		case "resolve":
			c.ResolvePending()
		default:
			kind, ok := submissionKinds[w[0]]
			if !ok {
				t.Fatalf("unknown section %q", f.Name)
			}
			if len(w) != 2 {
				t.Fatalf("section %q: write %s <player>", f.Name, w[0])
			}
			c.SubmitKind(w[1], text, w[0] == "timeout", kind)
		}
	}
	if c.checks == 0 {
		t.Fatalf("the case checks nothing: give it a want, events or errors section")
	}
	if c.errors != "" && !c.rejected {
		t.Errorf("the case has an errors section but no submission was checked against it")
	}
	if err := c.Dice().Err(); err != nil {
		t.Errorf("dice: %v\nevents:\n%s", err, EventText(c.Events))
	}
	if n := len(c.Dice().Rolls()); n != len(c.Script) {
		var rolls []string
		for _, r := range c.Dice().Rolls() {
			rolls = append(rolls, r.String())
		}
		t.Errorf("the rules rolled %d dice, the case scripts %d\nrolls:\n%s\nevents:\n%s", n, len(c.Script),
			strings.Join(rolls, "\n"), EventText(c.Events))
	}
	if h.Update {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if testing.Verbose() {
		t.Logf("events:\n%s", EventText(c.Events))
	}
}

func hasSection(ar *txtar.Archive, name string) bool {
	for _, f := range ar.Files {
		if w := strings.Fields(f.Name); len(w) > 0 && w[0] == name {
			return true
		}
	}
	return false
}

// Checked records that the case checked something.
func (c *Case) Checked() { c.checks++ }

// Dice returns the case's dice: the script, rolled in order.
func (c *Case) Dice() *dice.Dice {
	if c.d == nil {
		c.d = dice.FromSource(c.Script)
	}
	return c.d
}

func (c *Case) needState(section string) {
	c.T.Helper()
	if c.State == nil {
		c.T.Fatalf("section %s comes before any position", section)
	}
}

// Submit answers player's open blocking prompt with text, else their
// anytime prompt, and resolves it at once.
func (c *Case) Submit(player, text string) {
	c.T.Helper()
	c.needState("orders")
	p, ok := c.prompt(player, func(p engine.Prompt) bool { return p.Kind.Blocks() })
	if !ok {
		p, ok = c.prompt(player, func(p engine.Prompt) bool { return !p.Kind.Blocks() })
	}
	if !ok {
		c.T.Fatalf("nothing is asked of %s: %v", player, c.State.Prompts())
	}
	c.answer(p, text, false)
}

// SubmitKind answers player's open prompt of kind with text (or with its
// default, when timeout says its deadline passed) and resolves it alone.
func (c *Case) SubmitKind(player, text string, timeout bool, kind engine.PromptKind) {
	c.T.Helper()
	c.needState(kind.String())
	p, ok := c.prompt(player, func(p engine.Prompt) bool { return p.Kind == kind })
	if !ok {
		c.T.Fatalf("no %s prompt is open for %s: %v", kind, player, c.State.Prompts())
	}
	if timeout {
		text = p.Default
	}
	c.answer(p, text, timeout)
}

func (c *Case) prompt(player string, ok func(engine.Prompt) bool) (engine.Prompt, bool) {
	for _, p := range c.State.Prompts() {
		if p.Player == player && ok(p) {
			return p, true
		}
	}
	return engine.Prompt{}, false
}

// Parse parses text for prompt p as p's player. When this is the case's
// last submission and the case has an errors section, it checks the
// errors and reports false: the orders are not to be resolved.
func (c *Case) Parse(p engine.Prompt, text string) (engine.Orders, bool) {
	c.T.Helper()
	orders, errs := c.State.View(p.Player).Parse(p, text)
	if c.errors != "" && c.at == c.last {
		c.rejected = true
		c.Checked()
		CheckErrors(c.T, c.errors, errs)
		return nil, false
	}
	if len(errs) > 0 {
		c.T.Fatalf("orders of %s for %s rejected: %v", p.Player, p.ID, errs)
	}
	return orders, true
}

func (c *Case) answer(p engine.Prompt, text string, def bool) {
	c.T.Helper()
	orders, ok := c.Parse(p, text)
	if !ok {
		return
	}
	c.Resolve([]engine.Answer{{Prompt: p, Orders: orders, Default: def}})
}

// ResolvePending answers every open blocking prompt with the orders of
// its player given since the last resolve ("" for none), together.
func (c *Case) ResolvePending() {
	c.T.Helper()
	c.needState("resolve")
	var answers []engine.Answer
	for _, p := range c.State.Prompts() {
		if !p.Kind.Blocks() {
			continue
		}
		o, errs := c.State.View(p.Player).Parse(p, c.pending[p.Player])
		if len(errs) > 0 {
			c.T.Fatalf("orders of %s rejected: %v", p.Player, errs)
		}
		answers = append(answers, engine.Answer{Prompt: p, Orders: o})
	}
	c.pending = map[string]string{}
	c.Resolve(answers)
}

// Resolve resolves answers from a stored copy of the state, as the engine
// does (the state is marshalled and loaded first), with the case's dice.
func (c *Case) Resolve(answers []engine.Answer) {
	c.T.Helper()
	b, err := c.State.Marshal()
	if err != nil {
		c.T.Fatal(err)
	}
	st, err := c.h.Ruleset.LoadState(b)
	if err != nil {
		c.T.Fatalf("load the marshalled state: %v", err)
	}
	c.State = st
	ev, err := st.Resolve(answers, c.Dice())
	c.Events = append(c.Events, ev...)
	if err != nil {
		c.T.Fatalf("resolve: %v\nevents:\n%s", err, EventText(c.Events))
	}
}

// CheckEvents checks an events section: each line appears in some event;
// "@ann text" in an event for ann alone; "!text" in none.
func (c *Case) CheckEvents(want string) {
	c.T.Helper()
	for _, w := range engine.OrderLines(want) {
		switch {
		case strings.HasPrefix(w, "@"):
			to, text, _ := strings.Cut(w[1:], " ")
			found := false
			for _, e := range c.Events {
				found = found || len(e.To) == 1 && e.To[0] == to && strings.Contains(e.Text, text)
			}
			if !found {
				c.T.Errorf("no event for %s alone contains %q; events:\n%s", to, text, EventText(c.Events))
			}
		case strings.HasPrefix(w, "!"):
			for _, e := range c.Events {
				if strings.Contains(e.Text, w[1:]) {
					c.T.Errorf("an event contains %q: %q", w[1:], e.Text)
				}
			}
		default:
			found := false
			for _, e := range c.Events {
				found = found || strings.Contains(e.Text, w)
			}
			if !found {
				c.T.Errorf("no event contains %q; events:\n%s", w, EventText(c.Events))
			}
		}
	}
}

// CheckErrors checks parse errors against an errors section: each "LINE:
// substring" must match an error on that line, and there must be no other
// error.
func CheckErrors(t testing.TB, want string, errs []engine.LineError) {
	t.Helper()
	lines := engine.OrderLines(want)
	if len(errs) == 0 {
		t.Errorf("orders accepted, want errors:\n%s", want)
		return
	}
	for _, w := range lines {
		n, sub, _ := strings.Cut(w, ":")
		line, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil {
			t.Fatalf("errors: %q is not LINE: substring", w)
		}
		found := false
		for _, e := range errs {
			found = found || e.Line == line && strings.Contains(e.Error(), strings.TrimSpace(sub))
		}
		if !found {
			t.Errorf("no error on line %d contains %q; got %v", line, strings.TrimSpace(sub), errs)
		}
	}
	if len(errs) != len(lines) {
		t.Errorf("%d errors, the case lists %d: %v", len(errs), len(lines), errs)
	}
}

// ScriptDice reads a dice section: whole numbers in order; "5*1" is five
// 1s (for dice where any legal value would do).
func ScriptDice(t testing.TB, text string) dice.Scripted {
	t.Helper()
	var script dice.Scripted
	for _, w := range strings.Fields(text) {
		times, v := "1", w
		if a, b, ok := strings.Cut(w, "*"); ok {
			times, v = a, b
		}
		k, err1 := strconv.Atoi(times)
		n, err2 := strconv.Atoi(v)
		if err1 != nil || err2 != nil || k < 1 {
			t.Fatalf("dice: %q is not a value nor count*value", w)
		}
		for ; k > 0; k-- {
			script = append(script, n)
		}
	}
	return script
}

// EventText lists events one a line, with their readers when hidden.
func EventText(ev []engine.Event) string {
	var b strings.Builder
	for _, e := range ev {
		b.WriteString("  " + e.Text)
		if len(e.To) > 0 {
			to := append([]string(nil), e.To...)
			sort.Strings(to)
			fmt.Fprintf(&b, "  [to %s]", strings.Join(to, ","))
		}
		b.WriteString("\n")
	}
	return b.String()
}
