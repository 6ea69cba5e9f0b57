package daemon_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"orrery/pbem/daemon"
)

// lockedBuffer is a log's output, written from the daemon's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestJSONLogNamesTheReason: with log.format json, why a sender was not
// authenticated is logged by its name ("wrong secret"), not as the number
// of its constant, which a reader of the log cannot decode.
func TestJSONLogNamesTheReason(t *testing.T) {
	var out lockedBuffer
	h := newHarness(t, func(c *daemon.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	h.handle(h.mail("ann@example.org", "[g1 wrongsecret]", "push 1"))
	h.handle(h.mail("ann@example.org", "[g1]", "push 1"))
	want := map[string]bool{"wrong secret": false, "missing secret": false}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not a JSON log line: %q: %v", line, err)
		}
		if rec["msg"] != "not authenticated" {
			continue
		}
		why, ok := rec["why"].(string)
		if !ok {
			t.Errorf("the reason is logged as %T %v, not by its name: %s", rec["why"], rec["why"], line)
			continue
		}
		if _, known := want[why]; known {
			want[why] = true
		}
	}
	for why, seen := range want {
		if !seen {
			t.Errorf("no \"not authenticated\" line says why=%q in:\n%s", why, out.String())
		}
	}
}
