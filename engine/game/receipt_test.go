package game_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"orrery/engine/dice"
	"orrery/engine/game"
)

// TestReceiptIsTheReportsPart checks that the receipt of each accepted
// submission, a secret one (a motto, with a quote in it) and a public one
// (a push), is the part the step's report lists, and that the shell
// command given to the player (printf … | sha256sum, run here by /bin/sh)
// prints the hash the report shows, which enters the digest the roll seed
// mixes.
func TestReceiptIsTheReportsPart(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	ctx := context.Background()
	svc := newSecretService(t)
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "s", Ruleset: "secret-toy", DiceSecret: "x", Options: map[string]string{"finish": "12"},
		Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}}}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in     game.Input
		step   uint64
		hidden bool
	}{
		{game.Input{Player: "ann", Prompt: "motto:ann", Text: "MOTTO don't give up, $HOME `x`"}, 1, true},
		{game.Input{Player: "ann", Text: "PUSH 2"}, 2, false},
		{game.Input{Player: "bob", Text: "PUSH 1"}, 2, false},
	}
	receipts := make([]*dice.Part, len(cases))
	for i, c := range cases {
		c.in.Game = "s"
		res, err := svc.Submit(ctx, c.in)
		if err != nil || !res.Accepted {
			t.Fatalf("%+v: %v %+v", c.in, err, res)
		}
		if res.Receipt == nil {
			t.Fatalf("%+v: accepted without a receipt", c.in)
		}
		receipts[i] = res.Receipt
	}
	for i, c := range cases {
		r := receipts[i]
		if r.Hidden != c.hidden || (r.Salt != "") != c.hidden {
			t.Errorf("%s: receipt hidden %v salt %q, want hidden %v", c.in.Text, r.Hidden, r.Salt, c.hidden)
		}
		rep, err := svc.StepReport(ctx, "s", c.step, c.in.Player)
		if err != nil {
			t.Fatal(err)
		}
		var found *dice.Part
		var hashes []string
		for k, p := range rep.Inputs {
			hashes = append(hashes, p.Hash)
			if p.Head == r.Head {
				found = &rep.Inputs[k]
			}
		}
		if found == nil || found.Hash != r.Hash || found.Salt != r.Salt || strings.Join(found.Lines, "\n") != strings.Join(r.Lines, "\n") {
			t.Fatalf("%s: receipt %+v, the report of step %d lists %+v", c.in.Text, r, c.step, rep.Inputs)
		}
		if dice.Digest(rep.Inputs) != rep.Digest || dice.RollSeed(rep.RevealedSeed, rep.Digest) != rep.RollSeed {
			t.Fatalf("step %d: the parts do not give the digest and roll seed", c.step)
		}
		out, err := exec.Command(sh, "-c", game.ReceiptCommand(*found)).Output()
		if err != nil {
			t.Fatalf("%s: %v", game.ReceiptCommand(*found), err)
		}
		if got := strings.Fields(string(out)); len(got) == 0 || got[0] != r.Hash {
			t.Errorf("%s prints %q, the report says %s", game.ReceiptCommand(*found), out, r.Hash)
		}
		// The digest by the docs' recipe, from the hashes as listed.
		cmd := `printf '%s\n' ` + strings.Join(hashes, " ") + ` | sha256sum`
		if out, err := exec.Command(sh, "-c", cmd).Output(); err != nil || !strings.HasPrefix(string(out), rep.Digest) {
			t.Errorf("%s prints %q (%v), the report's digest is %s", cmd, out, err, rep.Digest)
		}
	}
}
