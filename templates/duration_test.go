package templates

import (
	"strings"
	"testing"
	"time"

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

// TestNoticeMessagesForTheReader: a notice that comes as a message
// (lang.Msg) is written from its id and arguments in the reader's
// language, its times in the reader's zone and its lengths of time with
// Russian plurals; no English sentence is matched to get there.
func TestNoticeMessagesForTheReader(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	due := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	msk, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Skip(err)
	}
	m := lang.M("Reminder: your orders for %s are due by %s (%s from now).", "demo1", due, 27*time.Hour)
	for _, c := range []struct {
		tag  lang.Tag
		zone *time.Location
		want string
	}{
		{lang.Russian, msk, "Напоминание: приказы для игры demo1 нужны к пн 2026-11-23 21:00 MSK (18:00 UTC) (осталось 1 день 3 часа)."},
		{lang.English, msk, "Reminder: your orders for demo1 are due by Mon 2026-11-23 21:00 MSK (18:00 UTC) (1 day 3 hours from now)."},
		{lang.English, time.UTC, "Reminder: your orders for demo1 are due by Mon 2026-11-23 18:00 UTC (1 day 3 hours from now)."},
	} {
		d := sample("ann")
		d.Lang, d.Zone = c.tag, c.zone
		n := &game.Notice{Kind: "reminder"}
		n.Tell(m)
		n.Text = "a text that must not be read"
		d.Notice = n
		out, err := set.Render(Notice, d)
		if err != nil {
			t.Fatal(err)
		}
		if flat := strings.Join(strings.Fields(out.Text), " "); !strings.Contains(flat, c.want) {
			t.Errorf("%s reminder:\n%s\nwant it to say %q", c.tag, out.Text, c.want)
		}
	}
}
