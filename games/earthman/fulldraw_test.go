package earthman

import (
	"reflect"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// TestFullPictureWordedForReader checks that the full rules' picture
// drawn through messages is, in English, the picture as it always was,
// and that in Russian its own words are Russian.
func TestFullPictureWordedForReader(t *testing.T) {
	st, err := full{}.NewState(engine.Setup{GameID: "pic", Players: []string{"ann", "bob", "cyd"},
		Options: map[string]string{"prelude": "on"}}, dice.New("pic"))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*FullState)
	for _, stage := range []string{"prelude", "turns", "over"} {
		s.Stage = stage
		v := s.View("ann").(*fullView)
		want, got := v.Picture(), v.drawnPicture()
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: the English picture through messages differs:\nwant %q\ngot  %q", stage, want.Texts(), got.Texts())
		}
		ru := full{}.Localize(v, "ru").(*fullView).drawnPicture()
		alt := ru.Alt()
		if !strings.Contains(alt, "Бремя землянина") || strings.Contains(alt, "VP") {
			t.Errorf("%s: the Russian picture's text alternative is not Russian: %q", stage, alt)
		}
	}
}
