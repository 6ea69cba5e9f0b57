package templates

import (
	"strings"
	"testing"

	"orrery/engine/game"
	"orrery/engine/lang"
)

// TestNoticeDurationsInRussian: a length of time the engine wrote in
// English words is said in Russian, with the right plural, in the notices
// that carry one.
func TestNoticeDurationsInRussian(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ kind, text, want string }{
		{"reminder", "Reminder: your orders for demo1 are due by Mon 2026-11-23 18:00 UTC (2 hours from now).", "(осталось 2 часа)"},
		{"reminder", "Reminder: your orders for demo1 are due by Mon 2026-11-23 18:00 UTC (1 day 3 hours from now).", "(осталось 1 день 3 часа)"},
		{"reminder", "Reminder: your orders for demo1 are due by Mon 2026-11-23 18:00 UTC (45 minutes from now).", "(осталось 45 минут)"},
		{"resumed", "The GM resumed demo1. The deadline moves by the 5 days the game was paused, to Wed 2026-11-25 18:00 UTC.", "на время паузы (5 дней)"},
		{"vacation", "Vacation of bob noted from Tue 2026-12-01 00:00 UTC to Wed 2026-12-02 12:00 UTC (capped at 1 day 12 hours by the game's policy): your defaults apply while you are away.",
			"(по правилам игры не дольше, чем 1 день 12 часов)"},
	}
	for _, c := range cases {
		d := sample("ann")
		d.Lang = lang.Russian
		d.Notice = &game.Notice{Kind: c.kind, Text: c.text}
		m, err := set.Render(Notice, d)
		if err != nil {
			t.Fatal(err)
		}
		if flat := strings.Join(strings.Fields(m.Text), " "); !strings.Contains(flat, c.want) {
			t.Errorf("%s %q in Russian:\n%s\nwant it to say %q", c.kind, c.text, m.Text, c.want)
		}
	}
}
