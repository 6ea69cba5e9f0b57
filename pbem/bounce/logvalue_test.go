package bounce

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// A bounce's kind reaches a JSON log by its name, not as a number.
func TestKindLogsByName(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	log.Info("bounce", "kind", Hard, "was", Soft)
	if out := buf.String(); !strings.Contains(out, `"kind":"hard"`) || !strings.Contains(out, `"was":"soft"`) {
		t.Errorf("JSON log: %s", out)
	}
}
