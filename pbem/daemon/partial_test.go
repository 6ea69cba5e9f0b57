package daemon_test

import (
	"testing"
)

// A mail applied in part opens its refusal with how many of its lines
// were applied and which to fix and send again, in the reader's language
// alone.
func TestPartlyApplied(t *testing.T) {
	for _, c := range []struct {
		name, setup, body string
		want, not         []string
	}{
		{name: "english", body: "PRESS TO ALL\nhello\nEND\npush 9",
			want: []string{"1 of 2 lines applied; fix line 4 and send only it."}},
		{name: "russian", setup: "SET LANG ru", body: "PRESS TO ALL\nhello\nEND\npush 9",
			want: []string{"Применено строк: 1 из 2; исправьте строку 4 и пришлите только её."}},
		{name: "orders go together", body: "PRESS TO ALL\nhello\nEND\npush 1\npush 9",
			want: []string{"1 of 3 lines applied; fix line 5 and send only lines 4, 5 again."}},
		// The parts above a SET LANG are in the new language too.
		{name: "set lang in the same mail", body: "PRESS TO ALL\nhello\nEND\nSET LANG ru\npush 9",
			want: []string{"Ваше послание в игре g1 отправлено", "Применено строк: 2 из 3; исправьте строку 5 и пришлите только её."},
			not:  []string{"Hello", "Your press"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			if c.setup != "" {
				h.handle(h.mail("ann@example.org", "settings", c.setup))
			}
			h.flush()
			h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", c.body))
			answerSays(t, to(h.flush(), "ann@example.org"), c.want, c.not)
		})
	}
}
