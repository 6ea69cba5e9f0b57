package inmail

import (
	"strings"
	"testing"
	"time"
)

// TestStripSpeed keeps hostile text of the largest size we read cheap to
// strip: a mail may not cost the daemon seconds.
func TestStripSpeed(t *testing.T) {
	shapes := map[string]string{
		"long lines":   strings.Repeat(strings.Repeat("x", 127)+"\n", DefaultMaxText/128),
		"one line":     strings.Repeat("y", DefaultMaxText),
		"blank runs":   strings.Repeat("On a wrote:\n\n\n\n", DefaultMaxText/16),
		"wrote lines":  strings.Repeat(strings.Repeat("z ", 50)+"wrote:\n", DefaultMaxText/108),
		"from blocks":  strings.Repeat("From: a\nx\nx\n", DefaultMaxText/12),
		"quote prefix": strings.Repeat(">"+strings.Repeat(" ", 100)+"\n", DefaultMaxText/102),
	}
	for name, body := range shapes {
		start := time.Now()
		StripSignOff(StripQuotes(body), "Ann Example")
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: %v to strip %d bytes", name, d, len(body))
		} else {
			t.Logf("%s: %v", name, d)
		}
	}
}
