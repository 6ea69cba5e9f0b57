package templates

import (
	"html"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

const hiddenSample = "5e6f708192a3b4c5d6e7f8091a2b3c4d3f1d9a0c5b7e4d2a8c6b0e9f1a2d3c4b"

// scheme2 is the sample report of ann under dice scheme 2: her own secret
// part readable (salt and lines), bob's sealed, the digest, the roll seed,
// the seed of the dice marked [ann], and bob named as having sent his
// orders again after everyone else's were in.
func scheme2(player string) *Data {
	d := sample(player)
	r := *d.Report
	hidden := hiddenSample
	r.RevealedSeed = dice.PublicSeed(hidden)
	r.RevealedCommitment = dice.Commitment(r.RevealedSeed)
	own := dice.Part{Head: "ann turn:ann sent", Hidden: true, To: []string{"ann"}, Salt: dice.Salt(hidden, "turn:ann"),
		Lines: []string{"BUILD MINE AT RIGEL", "MOVE FLEET 2 TO MARS"}}.Sealed()
	bob := dice.Part{Head: "bob turn:bob sent", Hidden: true, To: []string{"bob"}, Salt: dice.Salt(hidden, "turn:bob"), Lines: []string{"HOLD"}}.Sealed().Redacted()
	cy := dice.Part{Head: "cy turn:cy default", Hidden: true, To: []string{"cy"}, Salt: dice.Salt(hidden, "turn:cy"), Lines: []string{"HOLD"}}.Sealed().Redacted()
	r.DiceScheme, r.Inputs = dice.Scheme2, []dice.Part{own, bob, cy}
	r.Digest = dice.Digest(r.Inputs)
	r.RollSeed = dice.RollSeed(r.RevealedSeed, r.Digest)
	r.Streams = []dice.Stream{{Key: "ann", To: []string{"ann"}, Seed: dice.StreamSeed(hidden, r.Digest, "ann")}}
	r.Rolls = []dice.Roll{{N: 1, Sides: 6, Value: 5, Purpose: "Red fires at Mars"}, {N: 1, Sides: 6, Value: 4, Purpose: "ann's spy", To: []string{"ann"}, Stream: "ann"}}
	r.LastOrders, r.LastResent = "bob", true
	d.Report = &r
	return d
}

// TestSchemeTwoReport: the report of a scheme-2 step tells a player all
// they need to redo the dice with sha256sum, within 78 columns but for the
// lines that hold a 64-digit value or a command; the end of such a game
// says how the seeds derive from the revealed secret.
func TestSchemeTwoReport(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	d := scheme2("ann")
	m, err := set.Render(Report, d)
	if err != nil {
		t.Fatal(err)
	}
	// The commands are broken where a shell accepts it, to fit 78
	// columns: read them joined again.
	m.Text = strings.NewReplacer(" \\\n    ", " ", " \\\n  ", " ").Replace(m.Text)
	r := d.Report
	must := []string{r.RevealedSeed, r.RevealedCommitment, r.Digest, r.RollSeed, r.Streams[0].Seed,
		"  ann turn:ann sent\n    salt " + r.Inputs[0].Salt + "\n    BUILD MINE AT RIGEL\n    MOVE FLEET 2 TO MARS\n    " + r.Inputs[0].Hash + "\n",
		"  bob turn:bob sent\n    " + r.Inputs[1].Hash + "\n", "  cy turn:cy default\n",
		"#1 [ann] ann's spy: d6 = 4", "dice marked [ann]", "Last orders in: bob, who sent them again after everyone",
		"orrery dice " + r.RevealedSeed + " --inputs " + r.Digest}
	for _, s := range must {
		if !strings.Contains(m.Text, s) {
			t.Errorf("the text lacks %q:\n%s", s, m.Text)
		}
		if strings.HasPrefix(s, "#1 [ann]") {
			s = "[ann] ann's spy" // the HTML lists the dice in a table: number, purpose, die, value
		}
		if s := html.EscapeString(strings.TrimSpace(strings.SplitN(s, "\n", 2)[0])); !strings.Contains(m.HTML, s) {
			t.Errorf("the HTML lacks %q", s)
		}
	}
	if strings.Contains(m.Text, dice.Salt(hiddenSample, "turn:bob")) || strings.Contains(m.Text, "<no value>") || strings.Contains(m.HTML, "<no value>") {
		t.Errorf("the text shows bob's salt or a missing field:\n%s", m.Text)
	}
	unjoined, _ := set.Render(Report, d)
	for i, l := range strings.Split(unjoined.Text, "\n") {
		if engine.Width(l) > Width {
			t.Errorf("text line %d is %d columns: %q", i+1, engine.Width(l), l)
		}
	}
	r.Outcome = engine.Outcome{Over: true, Winners: []string{"ann"}, Text: "ann holds every planet"}
	r.DiceSecret, r.Prompts = "a1b2c3d4e5f60718293a4b5c6d7e8f90", nil
	m, err = set.Render(Report, d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "Every step's hidden seed is\n  HMAC-SHA256(secret, \"demo1:EPOCH:STEP\")\nand its seed is the SHA-256 of that") {
		t.Errorf("the final report does not say how the seeds derive from the secret:\n%s", m.Text)
	}
}
