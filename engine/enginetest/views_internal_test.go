package enginetest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest/toy"
)

// failures records what a check reports instead of failing the test.
type failures struct {
	testing.TB
	msgs []string
}

func (f *failures) Helper() {}
func (f *failures) Errorf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}
func (f *failures) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
func (f *failures) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

// run calls check as a test would, stopping where it stops.
func (f *failures) run(check func()) {
	var wg sync.WaitGroup
	wg.Go(check)
	wg.Wait()
}

// meddler is a state whose views write into it: the toy's, with a board
// that leaves a note in the GM's motto.
type meddler struct{ *toy.State }

func (m meddler) View(p string) engine.View { return meddlingView{m.State.View(p), m.State} }

type meddlingView struct {
	engine.View
	s *toy.State
}

func (v meddlingView) Board() string {
	v.s.Motto["looked"] = "yes"
	return v.View.Board()
}

func TestCheckViewsCatchesAViewThatChangesItsState(t *testing.T) {
	players := []string{"ann", "bob"}
	st, err := toy.Ruleset().NewState(engine.Setup{GameID: "g", Players: players, Options: map[string]string{"finish": "30"}}, dice.New("views"))
	if err != nil {
		t.Fatal(err)
	}
	f := &failures{TB: t}
	f.run(func() { checkViews(f, toy.Ruleset(), st, players) })
	if len(f.msgs) > 0 {
		t.Fatalf("the toy's views are read-only, yet: %v", f.msgs)
	}
	f.run(func() { checkViews(f, toy.Ruleset(), meddler{st.(*toy.State)}, players) })
	if len(f.msgs) != 1 || !strings.Contains(f.msgs[0], "looking at the views changed the state") {
		t.Fatalf("a view that writes into its state was not caught: %q", f.msgs)
	}
}
