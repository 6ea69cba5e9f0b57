package lang

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	cases := []struct {
		d      time.Duration
		en, ru string
	}{
		{2 * time.Hour, "2 hours", "2 часа"},
		{27 * time.Hour, "1 day 3 hours", "1 день 3 часа"},
		{45 * time.Minute, "45 minutes", "45 минут"},
		{time.Minute, "1 minute", "1 минута"},
		{21 * time.Minute, "21 minutes", "21 минута"},
		{22 * time.Minute, "22 minutes", "22 минуты"},
		{20 * time.Second, "1 minute", "1 минута"},
		{0, "0 minutes", "0 минут"},
		{time.Hour + 59*time.Minute + 40*time.Second, "2 hours", "2 часа"},
		{5*time.Hour + 30*time.Minute, "5 hours 30 minutes", "5 часов 30 минут"},
		{26*time.Hour + 40*time.Minute, "1 day 3 hours", "1 день 3 часа"},
		{23*time.Hour + 50*time.Minute, "1 day", "1 день"},
		{14 * 24 * time.Hour, "14 days", "14 дней"},
		{72 * time.Hour, "3 days", "3 дня"},
		{24*time.Hour + 5*time.Minute, "1 day", "1 день"},
		{-90 * time.Minute, "1 hour 30 minutes", "1 час 30 минут"},
	}
	for _, c := range cases {
		if got := Duration(English, c.d); got != c.en {
			t.Errorf("Duration(en, %v) = %q, want %q", c.d, got, c.en)
		}
		if got := Duration(Russian, c.d); got != c.ru {
			t.Errorf("Duration(ru, %v) = %q, want %q", c.d, got, c.ru)
		}
	}
}

// TestParseDuration reads back what Duration writes in English, and
// nothing else.
func TestParseDuration(t *testing.T) {
	for _, d := range []time.Duration{time.Minute, 45 * time.Minute, 2 * time.Hour, 27 * time.Hour, 14 * 24 * time.Hour, 5*time.Hour + 30*time.Minute} {
		s := Duration(English, d)
		got, ok := ParseDuration(s)
		if !ok || got != d {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", s, got, ok, d)
		}
	}
	for _, s := range []string{"", "2h0m0s", "3 steps", "1 days", "2 hour", "3 hours 1 day", "1 day 1 day", "in 2 hours", "2 hours from now"} {
		if d, ok := ParseDuration(s); ok {
			t.Errorf("ParseDuration(%q) = %v, want no match", s, d)
		}
	}
}
