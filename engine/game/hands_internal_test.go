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
