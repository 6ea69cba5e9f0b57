package enginetest_test

import (
	"math/rand/v2"
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

// unlisted is the toy with MOTTO missing from its help and its OrderWords:
// only its bot's any-time orders ("MOTTO onward"), which its parser takes,
// show the mistake.
type unlisted struct{ engine.Ruleset }

func (unlisted) OrderWords() (verbs, keywords []string) { return []string{"PUSH"}, nil }
func (u unlisted) Info() engine.Info {
	i := u.Ruleset.Info()
	i.OrderHelp = "PUSH <1-3>     push forward 1 to 3 (plus a d6)"
	return i
}

// TestConformanceNamesAMissingOrderWord: the conformance suite fails a
// ruleset whose OrderWords miss a word its own orders start with, once,
// with a message that names the word to add, and without a panic; the
// word is found in the help's examples and in the bot's orders. Each case
// runs the suite in a child test process, since the failure is the point.
func TestConformanceNamesAMissingOrderWord(t *testing.T) {
	cases := map[string]struct {
		rs   engine.Ruleset
		want string
	}{
		"help": {forgetful{toy.Ruleset()}, `line "PUSH <1-3>" of the order help as chatter, not as orders, and never parse it: add "PUSH" to the verbs OrderWords returns`},
		"bot":  {unlisted{toy.Ruleset()}, `line "MOTTO onward" of the bot's anytime orders for motto:`},
	}
	if name := os.Getenv("ENGINETEST_BROKEN"); name != "" {
		enginetest.Conformance(t, cases[name].rs, 10)
		return
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestConformanceNamesAMissingOrderWord$", "-test.count=1")
			cmd.Env = append(os.Environ(), "ENGINETEST_BROKEN="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("conformance passed a ruleset whose OrderWords miss a word:\n%s", out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Errorf("conformance failed without saying %q:\n%s", c.want, out)
			}
			if strings.Contains(string(out), "panic") {
				t.Errorf("conformance panicked:\n%s", out)
			}
			if n := strings.Count(string(out), "the verbs OrderWords returns"); n != 1 {
				t.Errorf("%d words reported, want the one missing:\n%s", n, out)
			}
		})
	}
}

// panicky is the toy with a bot that panics.
type panicky struct{ engine.Ruleset }

func (panicky) Bot(engine.View, engine.Prompt, *rand.Rand) string { panic("the bot is broken") }

// TestConformanceSurvivesAPanic: a panic in the ruleset's code fails the
// conformance test that met it, with the panic's value, and the tests
// after it still run (a panic would end the test binary).
func TestConformanceSurvivesAPanic(t *testing.T) {
	if os.Getenv("ENGINETEST_PANICKY") == "1" {
		t.Run("conformance", func(t *testing.T) { enginetest.Conformance(t, panicky{toy.Ruleset()}, 10) })
		t.Log("the tests after it still run")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConformanceSurvivesAPanic$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "ENGINETEST_PANICKY=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("conformance passed a ruleset whose bot panics:\n%s", out)
	}
	for _, want := range []string{"toy panicked: the bot is broken", "the tests after it still run"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
}
