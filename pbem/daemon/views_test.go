package daemon

import (
	"testing"

	"orrery/engine"
)

// The kept views are bounded: the oldest goes first, a key kept again
// takes no second place, and a mailer without them keeps nothing.
func TestViewsKeepTheNewest(t *testing.T) {
	type fake struct{ engine.View }
	k := func(step uint64) viewKey { return viewKey{game: "g1", step: step, player: "ann"} }
	c := newViews(2)
	c.put(k(1), fake{})
	c.put(k(2), fake{})
	c.put(k(2), fake{}) // again: still two kept, 1 and 2
	if _, ok := c.get(k(1)); !ok {
		t.Fatal("step 1 went when step 2 was kept again")
	}
	c.put(k(3), fake{})
	if _, ok := c.get(k(1)); ok {
		t.Error("the oldest view is still kept beyond the bound")
	}
	for _, s := range []uint64{2, 3} {
		if _, ok := c.get(k(s)); !ok {
			t.Errorf("step %d is not kept", s)
		}
	}
	if len(c.byID) != 2 {
		t.Errorf("%d views kept, bound 2", len(c.byID))
	}
	if found, missed := c.counts(); found != 3 || missed != 1 {
		t.Errorf("views found / missed: %d / %d, want 3 / 1", found, missed)
	}
	var none *views
	none.put(k(1), fake{})
	if _, ok := none.get(k(1)); ok {
		t.Error("a nil views kept a view")
	}
	if found, missed := none.counts(); found != 0 || missed != 0 {
		t.Errorf("a nil views counted %d / %d", found, missed)
	}
}
