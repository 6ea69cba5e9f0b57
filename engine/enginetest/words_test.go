package enginetest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
	"orrery/engine/enginetest/toy"
)

// forgetful is the toy with a mistake in its OrderWords: it forgets PUSH,
// the word its parser, its bot and its help all use. The mail side would
// read every PUSH a player sends as chatter.
type forgetful struct{ engine.Ruleset }

func (forgetful) OrderWords() (verbs, keywords []string) { return []string{"MOTTO"}, nil }

// TestConformanceNamesAMissingOrderWord: the conformance suite fails a
// ruleset whose OrderWords miss a word its own orders start with, with a
// message that names the word to add, and without a panic. It runs the
// suite in a child test process, since the failure is the point.
func TestConformanceNamesAMissingOrderWord(t *testing.T) {
	if os.Getenv("ENGINETEST_FORGETFUL") == "1" {
		enginetest.Conformance(t, forgetful{toy.Ruleset()}, 10)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConformanceNamesAMissingOrderWord$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "ENGINETEST_FORGETFUL=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("conformance passed a ruleset whose OrderWords forget PUSH:\n%s", out)
	}
	if want := `add "PUSH" to the verbs OrderWords returns`; !strings.Contains(string(out), want) {
		t.Errorf("conformance failed without saying %q:\n%s", want, out)
	}
	if strings.Contains(string(out), "panic") {
		t.Errorf("conformance panicked:\n%s", out)
	}
	if n := strings.Count(string(out), `add "PUSH"`); n != 1 {
		t.Errorf("the missing word is reported %d times, want once:\n%s", n, out)
	}
}
