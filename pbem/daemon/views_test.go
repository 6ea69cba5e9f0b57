package daemon

import (
	"testing"

	"orrery/engine"
	"orrery/engine/game"
)

// The kept views are bounded, the oldest going first; a view taken
// leaves, but the observers' (drawn once for each observer); a key put
// again is kept by its newest put, which an older slot of the ring does
// not take out; a mailer without views keeps nothing.
func TestViewsKeepTheNewest(t *testing.T) {
	type fake struct {
		engine.View
		n int
	}
	k := func(step uint64) viewKey { return viewKey{game: "g1", step: step, player: "ann"} }
	c := newViews(3)
	c.put(k(1), fake{n: 1})
	c.put(k(2), fake{n: 2})
	if v, ok := c.take(k(1)); !ok || v.(fake).n != 1 {
		t.Fatalf("step 1's view: %v %v", v, ok)
	}
	if _, ok := c.take(k(1)); ok {
		t.Error("a view taken is still kept")
	}
	c.put(k(1), fake{n: 11}) // again, in the third slot
	c.put(k(3), fake{n: 3})  // the first slot's step 1 goes, not this one
	if v, ok := c.take(k(1)); !ok || v.(fake).n != 11 {
		t.Errorf("step 1 put again: %v %v, want the newest put", v, ok)
	}
	c.put(k(4), fake{n: 4}) // step 2 goes
	c.put(k(5), fake{n: 5})
	if _, ok := c.take(k(2)); ok {
		t.Error("the oldest view is still kept beyond the bound")
	}
	if len(c.byID) > 3 {
		t.Errorf("%d views kept, bound 3", len(c.byID))
	}
	obs := viewKey{game: "g1", step: 9, player: game.Observer}
	c.put(obs, fake{n: 9})
	for i := range 3 {
		if _, ok := c.take(obs); !ok {
			t.Errorf("the observers' view is gone at observer %d", i+1)
		}
	}
	if found, missed := c.counts(); found != 5 || missed != 2 {
		t.Errorf("views found / missed: %d / %d, want 5 / 2", found, missed)
	}
	var none *views
	none.put(k(1), fake{})
	if _, ok := none.take(k(1)); ok {
		t.Error("a nil views kept a view")
	}
	if found, missed := none.counts(); found != 0 || missed != 0 {
		t.Errorf("a nil views counted %d / %d", found, missed)
	}
}
