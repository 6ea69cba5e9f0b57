package game_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"orrery/engine/game"
)

// A refused submission's log entry keeps what an answer lists: the first
// MaxLoggedErrors errors, a count of the rest, and 1 KB of its text, cut
// at a line; one hostile mail of 80,000 bad lines stored 7.9 MB before.
func TestRejectedEntryBounded(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g1", "ann", "bob")
	res := submit(t, svc, "g1", "ann", strings.Repeat("PUSH 9 "+strings.Repeat("é", 300)+"\n", 5000))
	if res.Accepted || len(res.Errors) != 5000 {
		t.Fatalf("accepted %v with %d errors; want 5000 errors", res.Accepted, len(res.Errors))
	}
	x, err := svc.Export(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	var e *game.Entry
	for _, l := range x.Log {
		if l.Kind == "rejected" {
			e = l
		}
	}
	if e == nil {
		t.Fatal("no rejected entry")
	}
	if len(e.Errors) != game.MaxLoggedErrors || e.ErrorsMore != 5000-game.MaxLoggedErrors {
		t.Errorf("the entry keeps %d errors and counts %d more", len(e.Errors), e.ErrorsMore)
	}
	for _, m := range e.Errors {
		if len(m) > 210 || !utf8.ValidString(m) {
			t.Errorf("an error of %d bytes (valid UTF-8: %v)", len(m), utf8.ValidString(m))
		}
	}
	if len(e.Text) > 1100 || !utf8.ValidString(e.Text) || !strings.HasSuffix(e.Text, "[... cut]") {
		t.Errorf("the entry keeps %d bytes of text, ending %q", len(e.Text), e.Text[max(0, len(e.Text)-20):])
	}
}

// HISTORY's reads are bounded: the press of a step is read from the
// stretch of the log between that step's record and the next's, and the
// step of a turn is found by a binary search; both give what a scan of
// the whole game gave, rollbacks included.
func TestStepReadsByIndex(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	create(t, svc, "g", "ann", "bob")
	say := func(text string) {
		if _, _, err := svc.Press(ctx, "g", "ann", nil, text); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 6 {
		say(fmt.Sprintf("step %d, first", i))
		submit(t, svc, "g", "ann", "PUSH 1")
		say(fmt.Sprintf("step %d, second", i))
		submit(t, svc, "g", "bob", "PUSH 1")
	}
	if _, _, err := svc.Rollback(ctx, "g", 4, "test"); err != nil {
		t.Fatal(err)
	}
	say("step 4, after the rollback")
	for n := uint64(0); n <= 4; n++ {
		rep, err := svc.StepReport(ctx, "g", n, "bob")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range rep.Press {
			got = append(got, p.Text)
		}
		want := []string{fmt.Sprintf("step %d, first", n), fmt.Sprintf("step %d, second", n)}
		if n == 4 {
			want = append(want, "step 4, after the rollback")
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("step %d: press %q, want %q", n, got, want)
		}
	}
	for turn := 1; turn <= 5; turn++ {
		n, err := svc.StepOfTurn(ctx, "g", turn)
		if err != nil || n != uint64(turn-1) {
			t.Errorf("StepOfTurn(%d) = %d, %v; want %d", turn, n, err, turn-1)
		}
	}
	if _, err := svc.StepOfTurn(ctx, "g", 6); err == nil || !game.IsUserError(err) {
		t.Errorf("StepOfTurn of a turn not reached since the rollback: %v", err)
	}
}

// BenchmarkHistoryOfALongGame: HISTORY of turn 1 in a game of 2,000 steps
// with a press message each: the step found by a binary search and its
// press read from its stretch of the log, not from the whole log.
func BenchmarkHistoryOfALongGame(b *testing.B) {
	svc, _ := newService(b)
	ctx := context.Background()
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "g", Ruleset: "toy", Options: map[string]string{"finish": "1000000"},
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}}); err != nil {
		b.Fatal(err)
	}
	for i := range 2000 {
		if _, _, err := svc.Press(ctx, "g", "ann", nil, fmt.Sprintf("week %d", i)); err != nil {
			b.Fatal(err)
		}
		submit(b, svc, "g", "ann", "PUSH 1")
		submit(b, svc, "g", "bob", "PUSH 1")
	}
	b.ResetTimer()
	for range b.N {
		n, err := svc.StepOfTurn(ctx, "g", 1)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.StepReport(ctx, "g", n, "bob"); err != nil {
			b.Fatal(err)
		}
	}
}
