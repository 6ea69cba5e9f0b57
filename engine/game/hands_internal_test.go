package game

import (
	"reflect"
	"testing"
)

// Hands lists the seats held now by someone other than their first
// player; OwnName greets the new holder by the name they gave, else their
// address's local part, and the first player by the seat's name.
func TestHandsAndOwnName(t *testing.T) {
	g := &Game{Step: 5, Players: []Player{
		{Name: "ann", Email: "ann@x.org", Holders: []Holder{{Email: "ann@x.org", From: 1}}},
		{Name: "bob", Email: "eve@x.org", Holders: []Holder{{Email: "bob@x.org", From: 1, Ended: "replaced"}, {Email: "eve@x.org", From: 3}}},
		{Name: "cho", Email: "dora@x.org", Holders: []Holder{{Email: "cho@x.org", From: 1, Ended: "abandoned"}, {Email: "dora@x.org", Name: "Dora", From: 2}}},
		{Name: "dan", Bot: true, Holders: []Holder{{Email: "dan@x.org", From: 1, Ended: "abandoned"}, {Bot: true, From: 2}}},
		{Name: "eli", Bot: true, Holders: []Holder{{Bot: true, From: 1}}},
		{Name: "fay", Email: "fay@x.org", Holders: []Holder{{Email: "fay@x.org", From: 1, Ended: "abandoned"}, {Bot: true, From: 2, To: 3, Ended: "returned"}, {Email: "fay@x.org", From: 4}}},
	}}
	want := []Hand{{Seat: "bob", By: "eve"}, {Seat: "cho", By: "Dora"}, {Seat: "dan", Bot: true}}
	if got := g.Hands(); !reflect.DeepEqual(got, want) {
		t.Errorf("Hands = %+v, want %+v", got, want)
	}
	for i, name := range []string{"ann", "eve", "Dora", "dan", "eli", "fay"} {
		if got := g.Players[i].OwnName(); got != name {
			t.Errorf("%s's holder is greeted as %q, want %q", g.Players[i].Name, got, name)
		}
	}
}

// HandsAt says who held each seat at a past step, not who holds it now:
// bob's seat was eve's from step 3 and the bot's from step 6, fay's the
// bot's for steps 2 and 3 only; the latest step is Hands.
func TestHandsAt(t *testing.T) {
	g := &Game{Step: 7, Players: []Player{
		{Name: "ann", Email: "ann@x.org", Holders: []Holder{{Email: "ann@x.org", From: 1}}},
		{Name: "bob", Bot: true, Holders: []Holder{{Email: "bob@x.org", From: 1, To: 2, Ended: "replaced"}, {Email: "eve@x.org", From: 3, To: 5, Ended: "abandoned"}, {Bot: true, From: 6}}},
		{Name: "fay", Email: "fay@x.org", Holders: []Holder{{Email: "fay@x.org", From: 1, To: 1, Ended: "abandoned"}, {Bot: true, From: 2, To: 3, Ended: "returned"}, {Email: "fay@x.org", From: 4}}},
		// gus's seat went to hal from step 4, who was kicked after step 5.
		{Name: "gus", Email: "hal@x.org", Holders: []Holder{{Email: "gus@x.org", From: 1, To: 3, Ended: "replaced"}, {Email: "hal@x.org", From: 4, To: 5, Ended: "kicked"}}},
	}, Kicked: []string{"gus"}}
	for _, c := range []struct {
		step uint64
		want []Hand
	}{
		{0, nil},
		{1, nil},
		{2, []Hand{{Seat: "fay", Bot: true}}},
		{3, []Hand{{Seat: "bob", By: "eve"}, {Seat: "fay", Bot: true}}},
		{4, []Hand{{Seat: "bob", By: "eve"}, {Seat: "gus", By: "hal"}}},
		{5, []Hand{{Seat: "bob", By: "eve"}, {Seat: "gus", By: "hal"}}},
		{6, []Hand{{Seat: "bob", Bot: true}}},
		{7, []Hand{{Seat: "bob", Bot: true}}},
	} {
		if got := g.HandsAt(c.step); !reflect.DeepEqual(got, c.want) {
			t.Errorf("HandsAt(%d) = %+v, want %+v", c.step, got, c.want)
		}
	}
}

// PublicHandsAt names a new holder only by an own name: observers may be
// anyone, and an address's local part is not theirs to read.
func TestPublicHandsAt(t *testing.T) {
	g := &Game{Step: 5, Players: []Player{
		{Name: "bob", Email: "eve@x.org", Holders: []Holder{{Email: "bob@x.org", From: 1, To: 2, Ended: "replaced"}, {Email: "eve@x.org", From: 3}}},
		{Name: "cho", Email: "dora@x.org", Holders: []Holder{{Email: "cho@x.org", From: 1, To: 1, Ended: "abandoned"}, {Email: "dora@x.org", Name: "Dora", From: 2}}},
		{Name: "dan", Bot: true, Holders: []Holder{{Email: "dan@x.org", From: 1, To: 1, Ended: "abandoned"}, {Bot: true, From: 2}}},
	}}
	want := []Hand{{Seat: "bob"}, {Seat: "cho", By: "Dora"}, {Seat: "dan", Bot: true}}
	if got := g.PublicHandsAt(5); !reflect.DeepEqual(got, want) {
		t.Errorf("PublicHandsAt(5) = %+v, want %+v", got, want)
	}
	if got, want := g.PublicHandsAt(2), []Hand{{Seat: "cho", By: "Dora"}, {Seat: "dan", Bot: true}}; !reflect.DeepEqual(got, want) {
		t.Errorf("PublicHandsAt(2) = %+v, want %+v", got, want)
	}
	if got := g.HandsAt(5); got[0].By != "eve" {
		t.Errorf("the players' HandsAt(5) = %+v, want eve named", got)
	}
}
