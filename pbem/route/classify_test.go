package route_test

import (
	"strings"
	"testing"

	"orrery/engine"
	"orrery/games"
	"orrery/pbem/inmail"
	"orrery/pbem/route"
)

// chatter is what players write around their orders, in the languages they
// write: never an order, in any ruleset.
var chatter = []string{
	"Hi!", "Hello,", "Hey", `Here are my "orders" for this turn:`, "Here's my plan - \"go big\":", "Thanks!",
	"Thank you", "Ann", "Cheers", "Good luck everyone", "See you next turn.", "Looking forward to it.",
	"Best,", "Regards", "Kind regards,", "Sorry for the late orders", "Going all in - wish me luck!",
	"Please find my orders below", "Hope this works", "I am away next week.", "Ok", "lol",
	"Привет!", "Здравствуйте!", "Вот мои приказы на этот ход:", "Спасибо", "С уважением,", "Удачи всем :)",
	"Дмитрий", "Bonjour à tous", "Merci !", "Hallo zusammen", "22.11.2026, 20:01, \"Orrery\" <orrery@example.org>:",
	"Deadline: Mon 2026-11-23 18:00 UTC", "Still to send: zed", "EVENTS", "(nothing you can see happened)",
	"           M n4    - S -     - L n12", "1 A   zed                 0      0           0        30",
	"            /    \\    /    \\    /    \\", "Owners: A = zed, B = ann (you).",
	"Colonisation, pick 1: zed to settle.", "https://ivy.example",
}

// typos are mistyped or verb-less orders of each ruleset: each must be
// read as an order, so that the ruleset answers with the line and a fix.
var typos = map[string][]string{
	"prosper":          {"SETLE Vega 5", "setle vega 5", "MOEV 5 FROM Sol TO Vega", "5 FROM Sol TO Vega", "ELSE Hamal 5", "Settel Sol 12", "DOEN", "Going to attack Vega from Sol"},
	"earthman-classic": {"LANCH 2 FROM Earth TO Cislunar", "EVACAUTE Mars 2", "DEVLOP Mars 3 UNTIL 2", "PLCAE Earth", "COPU Mars 2 AT ann"},
	"earthman":         {"RESAERCH Mars 2", "EXAPND Mars 1", "PASES 2", "LANCH 2 FROM Earth TO Cislunar", "INFLUENSE Mars 3"},
	"burning":          {"BIULD CANNON AT K6", "СТРОИТ ПУШКА В K6", "SHPI 12 MOVE K6", "КОРАБЛ 12 ЛЕТЕТЬ K6", "12 MOVE K6", "DEMOLSH K6", "БОМБИТЬ Arda"},
	"orbital":          {"TRHUST A1 +2", "LANUCH F1 LEFT", "PLCE S1 0101", "STRIEK W1 AT S2", "RECYLE F1"},
}

// valid are correct orders of each ruleset, in each language it reads.
var valid = map[string][]string{
	"prosper":          {"SETTLE Vega 5", "settle vega 5 else sol 12", "MOVE 5 FROM Sol TO Vega", "DONE", "PLAN NONE"},
	"earthman-classic": {"PLACE Earth", "LAUNCH 2 FROM Earth TO Cislunar", "ON COUP AT ANY EVACUATE"},
	"earthman":         {"RESEARCH Mars 2", "AI KEEP 1", "UN FLEET"},
	"burning":          {"BUILD CANNON AT K6", "СТРОИТЬ ПУШКА В K6", "СТРОИТЬ ПУШКА В К6", "SHIP 12 MOVE K6", "ЯЗЫК RU", "СОЮЗ bob"},
	"orbital":          {"THRUST A1 +2", "LAUNCH F1 LEFT", "BUY FIGHTER AT S1"},
}

func classifiers(t *testing.T) map[string]*route.Classifier {
	t.Helper()
	out := map[string]*route.Classifier{}
	for _, rs := range games.All() {
		out[rs.Info().Name] = route.NewClassifier(engine.OrderWords(rs))
	}
	if len(out) != len(typos) {
		t.Fatalf("%d rulesets, typos for %d: add the new ruleset's typos and orders", len(out), len(typos))
	}
	return out
}

func TestClassifier(t *testing.T) {
	for name, c := range classifiers(t) {
		t.Run(name, func(t *testing.T) {
			for _, l := range chatter {
				if c.Order(l) {
					t.Errorf("chatter %q read as an order", l)
				}
			}
			for _, l := range typos[name] {
				if !c.Order(l) {
					t.Errorf("mistyped order %q not read as an order: it would be dropped in silence", l)
				}
			}
			for _, l := range valid[name] {
				if !c.Order(l) {
					t.Errorf("order %q not read as an order", l)
				}
			}
			for _, cmd := range []string{"HELP", "STATUS demo1", "JION demo1", "RESNED demo1"} {
				if !c.Order(cmd) {
					t.Errorf("command %q not read", cmd)
				}
			}
		})
	}
}

// FuzzClassifier: any line is classified without a panic, the same way
// every time, and whatever is put before or after it in the same mail does
// not change that.
func FuzzClassifier(f *testing.F) {
	for _, l := range append(append([]string{}, chatter...), typos["burning"]...) {
		f.Add(l)
	}
	c := route.NewClassifier(engine.OrderWords(games.All()[0]))
	all := allWords()
	f.Fuzz(func(t *testing.T, line string) {
		a, b := c.Order(line), c.Order(line)
		if a != b {
			t.Fatalf("%q classified %v then %v", line, a, b)
		}
		all.Order(line)
		r := route.Parse("[demo1]", "Hi!\n"+line+"\nThanks\n", nil, route.Options{Classifier: func(string) *route.Classifier { return c }})
		for _, l := range append(r.OrderLines, r.Ignored...) {
			if l.N < 1 || l.N > 3+strings.Count(line, "\n") {
				t.Fatalf("line number %d out of the mail", l.N)
			}
		}
	})
}

func allWords() *route.Classifier {
	var v, k []string
	for _, rs := range games.All() {
		a, b := engine.OrderWords(rs)
		v, k = append(v, a...), append(k, b...)
	}
	return route.NewClassifier(v, k)
}

// TestParseReadsWhatPeopleWrite: chatter around the orders is listed and
// not read; the orders keep their line numbers; a report pasted back is
// skipped whole; a wrapped order is joined; orders under a signature are
// read when nothing above it is one.
func TestParseReadsWhatPeopleWrite(t *testing.T) {
	prosper := route.NewClassifier(engine.OrderWords(games.All()[0]))
	opt := route.Options{Classifier: func(string) *route.Classifier { return prosper }}
	lines := func(ls []inmail.Line) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(strings.TrimSpace(l.Text))
			b.WriteString("|")
		}
		return b.String()
	}
	tests := []struct {
		name, text      string
		orders, ignored string
		pasted          [2]int
	}{
		{name: "greeting and sign-off", text: "Hi!\nHere are my orders:\nSETTLE Vega 5\n\nAnn\n",
			orders: "SETTLE Vega 5|", ignored: "Hi!|Here are my orders:|Ann|"},
		{name: "typo stays an order", text: "Hello,\nSETLE Vega 5\n", orders: "SETLE Vega 5|", ignored: "Hello,|"},
		{name: "wrapped at 76", text: "SETTLE Capella 12 ELSE Regulus 12 ELSE Electra 12 ELSE Sol 12 ELSE Mira 5\nELSE Hamal 5\nSETTLE Vega 5\n",
			orders: "SETTLE Capella 12 ELSE Regulus 12 ELSE Electra 12 ELSE Sol 12 ELSE Mira 5 ELSE Hamal 5|SETTLE Vega 5|"},
		{name: "short lines are not joined", text: "SETTLE Vega 5\nELSE Hamal 5\n", orders: "SETTLE Vega 5|ELSE Hamal 5|"},
		{name: "pasted report", text: "SETTLE Vega 5\n\nHello ann,\n\nProsper or Perish -- game demo1, turn 0\n\n  M n4 - S - - L n12\n  / \\ / \\ / \\\nSeat Player Planets Ships To place\n- Settle a planet: SETTLE <planet> <ships>\n\nTo answer, keep [demo1 k7f3q] in the subject: it\ntells me the game.\n\nSETTLE Sol 12\n",
			orders: "SETTLE Vega 5|SETTLE Sol 12|", pasted: [2]int{5, 13},
			ignored: "Hello ann,|Prosper or Perish -- game demo1, turn 0|M n4 - S - - L n12|/ \\ / \\ / \\|Seat Player Planets Ships To place|- Settle a planet: SETTLE <planet> <ships>|To answer, keep [demo1 k7f3q] in the subject: it|tells me the game.|"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := route.Parse("[demo1]", tc.text, nil, opt)
			if got := lines(r.OrderLines); got != tc.orders {
				t.Errorf("orders %q, want %q", got, tc.orders)
			}
			if got := lines(r.Ignored); got != tc.ignored {
				t.Errorf("ignored %q, want %q", got, tc.ignored)
			}
			if got := [2]int{r.PastedFrom, r.PastedTo}; got != tc.pasted {
				t.Errorf("pasted report at %v, want %v", got, tc.pasted)
			}
			if len(r.Errors) > 0 {
				t.Errorf("errors: %v", r.Errors)
			}
			// Line n of the orders text is the line the ruleset will
			// name: it must map back to the line as sent.
			for i, l := range strings.Split(r.Orders, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "SETTLE Sol") {
					if want := strings.Count(tc.text[:strings.Index(tc.text, "SETTLE Sol")], "\n") + 1; r.Line(i+1) != want {
						t.Errorf("orders line %d maps to line %d, want %d", i+1, r.Line(i+1), want)
					}
				}
			}
		})
	}
}

// TestLookPastSignature: mutt users who write under their signature.
func TestLookPastSignature(t *testing.T) {
	prosper := route.NewClassifier(engine.OrderWords(games.All()[0]))
	opt := route.Options{Classifier: func(string) *route.Classifier { return prosper }}
	m := &inmail.Message{Subject: "[demo1]",
		Below: []inmail.Line{{N: 8, Text: "Ivy Ng"}, {N: 9, Text: "+1 555 0100"}, {N: 10, Text: ""}, {N: 11, Text: "SETTLE Electra 12"}}}
	r := route.Route(m, opt)
	if len(r.OrderLines) != 1 || r.OrderLines[0].N != 11 || r.Line(4) != 11 {
		t.Fatalf("orders under the signature: %+v (line 4 maps to %d)", r.OrderLines, r.Line(4))
	}
	if len(r.Ignored) != 2 || len(r.Errors) != 0 {
		t.Errorf("the signature must be listed as not read, never an error: %+v %v", r.Ignored, r.Errors)
	}
	// With an order above the signature, what is below is not read.
	m.Lines = []inmail.Line{{N: 1, Text: "SETTLE Vega 5"}}
	r = route.Route(m, opt)
	if len(r.OrderLines) != 1 || r.OrderLines[0].N != 1 || len(r.Ignored) != 0 {
		t.Errorf("orders above the signature: %+v, ignored %+v", r.OrderLines, r.Ignored)
	}
}

// BenchmarkParsePastedReport: a mail with orders and a whole report pasted
// under them, read with Prosper's words.
func BenchmarkParsePastedReport(b *testing.B) {
	c := route.NewClassifier(engine.OrderWords(games.All()[0]))
	opt := route.Options{Classifier: func(string) *route.Classifier { return c }}
	text := "Hi!\nSETTLE Vega 5\n\nProsper or Perish -- game demo1, turn 0\n" + strings.Repeat("  M n4 - S - - L n12\n  / \\ / \\ / \\\nSol large natives 12 60 Vega Rigel\n", 30) +
		"keep [demo1 k7] in the subject\n"
	for b.Loop() {
		route.Parse("[demo1]", text, nil, opt)
	}
}
