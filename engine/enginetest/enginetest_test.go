package enginetest_test

import (
	"testing"

	"orrery/engine/enginetest"
	"orrery/engine/enginetest/toy"
)

func TestToyConforms(t *testing.T) {
	enginetest.Conformance(t, toy.Ruleset(), 50)
}
