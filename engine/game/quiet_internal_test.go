package game

import (
	"context"
	"slices"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store/storetest"
)

func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

// Computed deadlines keep out of every seated player's quiet hours, in
// that player's own zone, across both DST changes, and out of weekends
// in the game's zone.
func TestComputedDeadlines(t *testing.T) {
	berlin := Player{Name: "ann", Zone: "Europe/Berlin"}
	la := Player{Name: "bob", Zone: "America/Los_Angeles"}
	tokyo := Player{Name: "cho", Zone: "Asia/Tokyo"}
	for _, c := range []struct {
		name    string
		st      Settings
		players []Player
		kicked  []string
		now     time.Time
		want    time.Time
		woken   []string
	}{
		{name: "no rule: the turn length", st: Settings{TurnLength: 24 * time.Hour},
			players: []Player{berlin}, now: utc(2026, 1, 13, 23, 30), want: utc(2026, 1, 14, 23, 30)},
		{name: "Berlin night in winter moves to 07:00 CET", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23:00-07:00"},
			players: []Player{berlin}, now: utc(2026, 1, 13, 23, 30), want: utc(2026, 1, 15, 6, 0)},
		{name: "outside quiet hours it stays", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23-07"},
			players: []Player{berlin}, now: utc(2026, 1, 13, 12, 0), want: utc(2026, 1, 14, 12, 0)},
		{name: "the night DST starts in Berlin: 07:00 CEST", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23-07"},
			players: []Player{berlin}, now: utc(2026, 3, 28, 0, 30), want: utc(2026, 3, 29, 5, 0)},
		{name: "the night DST ends in Los Angeles: 07:00 PST", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23-07"},
			players: []Player{la}, now: utc(2026, 10, 31, 8, 30), want: utc(2026, 11, 1, 15, 0)},
		{name: "Berlin and Los Angeles: Berlin's morning is LA's evening", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23-07"},
			players: []Player{berlin, la}, now: utc(2026, 1, 13, 4, 0), want: utc(2026, 1, 14, 6, 0)},
		{name: "three zones share one hour", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23-07"},
			players: []Player{berlin, la, tokyo}, now: utc(2026, 1, 13, 10, 0), want: utc(2026, 1, 15, 6, 0)},
		{name: "no common window: the fewest woken", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "20:00-08:00"},
			players: []Player{berlin, la, tokyo}, now: utc(2026, 1, 13, 12, 0), want: utc(2026, 1, 14, 16, 0), woken: []string{"cho"}},
		{name: "a bot's and a kicked seat's nights do not count", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23-07"},
			players: []Player{berlin, {Name: "bot", Bot: true, Zone: "Asia/Tokyo"}, la}, kicked: []string{"bob"},
			now: utc(2026, 1, 13, 16, 0), want: utc(2026, 1, 14, 16, 0)},
		{name: "a player without a zone is in the game's", st: Settings{TurnLength: 24 * time.Hour, QuietHours: "23-07", TimeZone: "Asia/Tokyo"},
			players: []Player{{Name: "dan"}}, now: utc(2026, 1, 13, 15, 0), want: utc(2026, 1, 14, 22, 0)},
		{name: "weekends off: 72 hours from Friday noon is Wednesday noon", st: Settings{TurnLength: 72 * time.Hour, WeekendsOff: true},
			now: utc(2026, 1, 16, 12, 0), want: utc(2026, 1, 21, 12, 0)},
		{name: "weekends off in Berlin's zone", st: Settings{TurnLength: 72 * time.Hour, WeekendsOff: true, TimeZone: "Europe/Berlin"},
			now: utc(2026, 1, 16, 20, 0), want: utc(2026, 1, 21, 20, 0)},
		{name: "weekends off across the spring DST change", st: Settings{TurnLength: 24 * time.Hour, WeekendsOff: true, TimeZone: "Europe/Berlin"},
			now: utc(2026, 3, 27, 12, 0), want: utc(2026, 3, 30, 11, 0)},
		{name: "weekends off across the autumn DST change", st: Settings{TurnLength: 24 * time.Hour, WeekendsOff: true, TimeZone: "America/Los_Angeles"},
			now: utc(2026, 10, 30, 19, 0), want: utc(2026, 11, 2, 20, 0)},
		{name: "a step sent on Saturday counts from Monday", st: Settings{TurnLength: 48 * time.Hour, WeekendsOff: true},
			now: utc(2026, 1, 17, 9, 0), want: utc(2026, 1, 21, 0, 0)},
		{name: "weekends off, then quiet hours: Monday 07:00", st: Settings{TurnLength: time.Hour, WeekendsOff: true, QuietHours: "23-07"},
			players: []Player{{Name: "dan"}}, now: utc(2026, 1, 16, 23, 30), want: utc(2026, 1, 19, 7, 0)},
		{name: "min gap onto a weekend moves to Monday", st: Settings{TurnLength: time.Hour, MinGap: 30 * time.Hour, WeekendsOff: true},
			now: utc(2026, 1, 16, 12, 0), want: utc(2026, 1, 19, 0, 0)},
		{name: "a schedule skips its weekend entries", st: Settings{Schedule: []string{"Sat 18:00", "Tue 18:00"}, WeekendsOff: true},
			now: utc(2026, 1, 16, 12, 0), want: utc(2026, 1, 20, 18, 0)},
		{name: "a schedule's entry in the night moves", st: Settings{Schedule: []string{"Wed 06:00"}, TimeZone: "Europe/Berlin", QuietHours: "23-07"},
			players: []Player{berlin}, now: utc(2026, 1, 13, 12, 0), want: utc(2026, 1, 14, 6, 0)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.st.validate(); err != nil {
				t.Fatal(err)
			}
			g := &Game{ID: "g", Settings: c.st, Players: c.players, Kicked: c.kicked}
			got, woken, err := g.nextDeadline(c.now, c.now)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(c.want) || !slices.Equal(woken, c.woken) {
				t.Errorf("deadline %v woken %v, want %v woken %v", got, woken, c.want, c.woken)
			}
			q, quiet, _ := parseQuiet(c.st.QuietHours)
			for _, s := range g.quietSeats() {
				if quiet && q.holds(got, s.loc) && !slices.Contains(c.woken, s.name) {
					t.Errorf("%v is in %s's quiet hours", got, s.name)
				}
			}
			loc, _ := c.st.location()
			if c.st.WeekendsOff && weekend(got, loc) {
				t.Errorf("%v is on a weekend", got)
			}
		})
	}
}

func TestQuietHoursRefused(t *testing.T) {
	for _, s := range []string{"23", "23:00-23:00", "25-07", "23:00-7:61", "night"} {
		if err := (Settings{QuietHours: s}).validate(); err == nil || !IsUserError(err) {
			t.Errorf("quiet hours %q: %v, want a refusal", s, err)
		}
	}
	if err := (Settings{Schedule: []string{"Sat 10:00"}, WeekendsOff: true}).validate(); err == nil {
		t.Error("a weekend-only schedule with weekends off was taken")
	}
}

// SetZone records an address's zone in the games it plays, and the next
// computed deadline keeps that zone's nights; an early resolution is not
// held by quiet hours.
func TestSetZoneMovesTheNextDeadline(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			st := storetest.Open(t, k)
			now := utc(2026, 1, 13, 22, 0) // 07:00 in Tokyo
			svc := New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			if _, err := svc.Create(ctx, CreateRequest{ID: "a", Ruleset: "toy", DiceSecret: "a",
				Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
				Settings: &Settings{Early: true, TurnLength: 24 * time.Hour, QuietHours: "23:00-07:00"}}); err != nil {
				t.Fatal(err)
			}
			changed, err := svc.SetZone(ctx, "Bob@example.org", "Asia/Tokyo")
			if err != nil || !slices.Equal(changed, []string{"a"}) {
				t.Fatalf("SetZone: %v %v", changed, err)
			}
			now = now.Add(2 * time.Hour) // 00:00 UTC, 09:00 in Tokyo: both awake
			if _, err := svc.Advance(ctx, "a", true); err != nil {
				t.Fatal(err)
			}
			g, err := svc.Get(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			// 00:00 UTC is within ann's (UTC) night: 07:00 UTC is 16:00 in Tokyo.
			if want := utc(2026, 1, 15, 7, 0); !g.Deadline.Equal(want) {
				t.Fatalf("deadline %v, want %v", g.Deadline, want)
			}
			now = utc(2026, 1, 14, 15, 0) // midnight in Tokyo
			for _, p := range []string{"ann", "bob"} {
				if _, err := svc.Submit(ctx, Input{Game: "a", Player: p, Text: "PUSH 3", Source: "test"}); err != nil {
					t.Fatal(err)
				}
			}
			if g, _ = svc.Get(ctx, "a"); g.Step != 2 {
				t.Fatalf("step %d: quiet hours held the early resolution", g.Step)
			}
		})
	}
}
