package settings

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store/storetest"
)

func TestSetGet(t *testing.T) {
	st := storetest.Open(t, storetest.Default())
	ctx := context.Background()
	if s, err := Load(ctx, st, "ann@x.org"); err != nil || len(s) != 0 || s.Lang() != "" || s.Zone() != time.UTC {
		t.Fatalf("a new address has no settings: %v %v", s, err)
	}
	cases := []struct {
		key, value, want string
		bad              bool
	}{
		{"lang", "RU", "ru", false},
		{"LANG", "русский", "ru", false},
		{"LANG", "fr", "", true},
		{"TZ", "europe/moscow", "", true}, // the tz database is case-sensitive
		{"TZ", "Europe/Moscow", "Europe/Moscow", false},
		{"TZ", "utc", "UTC", false},
		{"TZ", "Local", "", true},
		{"TZ", "Europe/Moscow", "Europe/Moscow", false},
		{"COLOUR", "blue", "", true},
	}
	for _, c := range cases {
		got, err := Put(ctx, st, "Ann <ANN@x.org>", c.key, c.value)
		var e *Error
		if c.bad != (err != nil) || (err != nil && !errors.As(err, &e)) || got != c.want {
			t.Errorf("SET %s %s = %q, %v; want %q (error: %v)", c.key, c.value, got, err, c.want, c.bad)
		}
	}
	s, err := Load(ctx, st, "ann@x.org")
	if err != nil {
		t.Fatal(err)
	}
	if s.Lang() != lang.Russian || s.Zone().String() != "Europe/Moscow" {
		t.Errorf("settings of ann: %v", s)
	}
	if got := s.Sorted(); len(got) != 2 || got[0] != "LANG" || got[1] != "TZ" {
		t.Errorf("sorted %v", got)
	}
	// A zone known without the system's database (time/tzdata).
	if _, err := time.LoadLocation("Asia/Kathmandu"); err != nil {
		t.Errorf("tzdata is not embedded: %v", err)
	}
	if _, err := Put(ctx, st, "ann@x.org", "LANG", "default"); err != nil {
		t.Fatal(err)
	}
	if _, err := Put(ctx, st, "ann@x.org", "TZ", ""); err != nil {
		t.Fatal(err)
	}
	if s, _ := Load(ctx, st, "ann@x.org"); len(s) != 0 {
		t.Errorf("cleared settings remain: %v", s)
	}
	if s, _ := Load(ctx, st, "bob@x.org"); len(s) != 0 {
		t.Errorf("bob has ann's settings: %v", s)
	}
}

// Settings are kept under the address as game.CanonAddress has it: ASCII
// case and the display name aside, a lookalike is another address.
func TestAddress(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Kim <Kim@Example.ORG>", "kim@example.org"},
		{"\u212aim@example.org", "\u212aim@example.org"},
		{"kim@ｅxample.org", "kim@example.org"},
	} {
		if got := Address(c.in); got != c.want {
			t.Errorf("Address(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// PICTURES takes on or off as REMINDERS does; anything else is refused
// with the fix, and changes nothing.
func TestPicturesOnOff(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, storetest.Default())
	if _, err := Put(ctx, st, "kim@x.org", Pictures, "purple"); err == nil || !strings.Contains(err.Error(), "write on or off") {
		t.Errorf("SET PICTURES purple: %v, want the fix named", err)
	}
	if s, _ := Load(ctx, st, "kim@x.org"); s.PicturesOff() || len(s) != 0 {
		t.Errorf("a refused value was kept: %v", s)
	}
	if got, err := Put(ctx, st, "kim@x.org", "pictures", "No"); err != nil || got != "off" {
		t.Fatalf("SET pictures No = %q, %v; want off", got, err)
	}
	if s, _ := Load(ctx, st, "kim@x.org"); !s.PicturesOff() {
		t.Errorf("PICTURES off not read back: %v", s)
	}
	if _, err := Put(ctx, st, "kim@x.org", Pictures, "default"); err != nil {
		t.Fatal(err)
	}
	if s, _ := Load(ctx, st, "kim@x.org"); s.PicturesOff() {
		t.Errorf("PICTURES default left pictures off: %v", s)
	}
}
