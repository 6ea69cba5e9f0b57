package templates

import (
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/lang"
)

// TestGoldenReminder (issue 44): a reminder says what is still expected
// of its reader, and links to their private page when the web runs, in
// English and in Russian.
func TestGoldenReminder(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	moscow, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	due := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	for _, x := range []struct {
		name string
		tag  lang.Tag
		zone *time.Location
		want []string
	}{
		{"reminder.ann", lang.English, time.UTC, []string{"Still expected of you: Your orders for turn 4: build, move, trade.", "https://orrery.example.org/p/"}},
		{"reminder.ru", lang.Russian, moscow, []string{"От вас ещё ждут:", "https://orrery.example.org/p/"}},
	} {
		t.Run(x.name, func(t *testing.T) {
			d := sample("ann")
			d.Lang, d.Zone = x.tag, x.zone
			d.Web = "https://orrery.example.org/p/demo1/ann/s3cr3t"
			n := &game.Notice{Kind: "reminder", To: []string{"ann"}, Due: due}
			n.Tell(lang.M("Reminder: your orders for %s are due by %s (%s from now). Still expected of you: %s", "demo1", due, 2*time.Hour, lang.And("Your orders for turn 4: build, move, trade.")))
			d.Notice = n
			m, err := set.Render(Notice, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range x.want {
				if !strings.Contains(m.Text, w) || !strings.Contains(m.HTML, w) {
					t.Errorf("%s lacks %q:\n%s", x.name, w, m.Text)
				}
			}
			checkGolden(t, x.name, m)
		})
	}
}
