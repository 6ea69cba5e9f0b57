package lang

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// units are the parts of a length of time a person names, largest first,
// each with its forms in every language (as Forms describes).
var units = []struct {
	d     time.Duration
	forms map[Tag][]string
}{
	{24 * time.Hour, map[Tag][]string{English: {"day", "days"}, Russian: {"день", "дня", "дней"}}},
	{time.Hour, map[Tag][]string{English: {"hour", "hours"}, Russian: {"час", "часа", "часов"}}},
	{time.Minute, map[Tag][]string{English: {"minute", "minutes"}, Russian: {"минута", "минуты", "минут"}}},
}

// Duration writes d as a person says it, in language t: "45 minutes", "2
// hours", "1 day 3 hours", "2 часа", "1 день 3 часа". It names the two
// largest units at most, rounded to the smaller one (a reminder 26 hours
// 40 minutes ahead says "1 day 3 hours"), never seconds: a positive d
// under a minute is "1 minute". A negative d is written as its length.
// Go's own form, "26h40m0s", is for logs, not for players.
func Duration(t Tag, d time.Duration) string {
	if d < 0 {
		d = -d
	}
	switch {
	case d >= 24*time.Hour-30*time.Minute:
		d = d.Round(time.Hour)
	case d > 0 && d < time.Minute:
		d = time.Minute
	default:
		d = d.Round(time.Minute)
	}
	var parts []string
	for _, u := range units {
		if n := int(d / u.d); n > 0 && len(parts) < 2 {
			parts = append(parts, Count(t, n, formsOf(u.forms, t)...))
			d -= time.Duration(n) * u.d
		} else if len(parts) > 0 {
			break // "1 day 5 minutes" would skip the hours: say the larger units only
		}
	}
	if len(parts) == 0 {
		return Count(t, 0, formsOf(units[2].forms, t)...)
	}
	return strings.Join(parts, " ")
}

func formsOf(forms map[Tag][]string, t Tag) []string {
	if f, ok := forms[t]; ok {
		return f
	}
	return forms[English]
}

var englishDuration = regexp.MustCompile(`^(\d+) (days?|hours?|minutes?)(?: (\d+) (days?|hours?|minutes?))?$`)

// ParseDuration reads back what Duration writes in English ("1 day 3
// hours"), so that a sentence worded in English by the engine can give its
// length of time to a translation in another language; ok is false for
// anything else.
func ParseDuration(s string) (d time.Duration, ok bool) {
	m := englishDuration.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	last := time.Duration(1 << 62)
	for i := 1; i < len(m) && m[i] != ""; i += 2 {
		n, err := strconv.Atoi(m[i])
		if err != nil {
			return 0, false
		}
		var unit time.Duration
		for _, u := range units {
			if en := u.forms[English]; m[i+1] == en[0] || m[i+1] == en[1] {
				unit = u.d
			}
		}
		if unit >= last || Count(English, n, formsOf(unitForms(unit), English)...) != m[i]+" "+m[i+1] {
			return 0, false // "3 hours 1 day", "1 days"
		}
		last = unit
		d += time.Duration(n) * unit
	}
	return d, true
}

func unitForms(d time.Duration) map[Tag][]string {
	for _, u := range units {
		if u.d == d {
			return u.forms
		}
	}
	return nil
}
