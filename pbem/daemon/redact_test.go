package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRedactSubject(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Re: [demo1 k7f3q] turn 3", "Re: [demo1 [redacted]] turn 3"},
		{"[demo1] orders", "[demo1] orders"},
		{"Re: [ demo1   k7f3q ] x", "Re: [ demo1 [redacted]] x"},
		{"orders secret=k7f3q for demo1", "orders secret=[redacted] for demo1"},
		{"orders Secret: k7f3q", "orders Secret: [redacted]"},
		{"SECRET k7f3q", "SECRET [redacted]"},
		{"your secret is wrong", "your secret is wrong"},
		{"[a b] and [c d]", "[a [redacted]] and [c [redacted]]"},
		{"", ""},
	} {
		got := RedactSubject(c.in)
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, got, RedactSubject(got), "not idempotent on %q", c.in)
	}
}

type stringer string

func (s stringer) String() string { return string(s) }

// Whatever the key, the level or the handler, a tag's secret never reaches
// the output.
func TestSafeLoggerRedactsEveryAttribute(t *testing.T) {
	const secret = "k7f3qzz"
	subj := "Re: [demo1 " + secret + "] turn 3"
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		var h slog.Handler = slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})
		if format == "json" {
			h = slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})
		}
		log := SafeLogger(SafeLogger(slog.New(h)))
		log.Debug("got "+subj, "subject", subj, "s", stringer(subj), "err", fmt.Errorf("wrapped: %w", errors.New(subj)),
			"list", []string{subj}, slog.Group("g", "subject", subj))
		log.With("subject", subj).WithGroup("x").Info("with", "other", subj)
		assert.NotContains(t, buf.String(), secret, format)
		assert.Contains(t, buf.String(), "demo1 [redacted]", format)
	}
}
