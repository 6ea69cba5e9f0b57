package earthman

import (
	"testing"

	"orrery/engine/enginetest"
)

func TestClassicConforms(t *testing.T) {
	enginetest.Conformance(t, Classic(), 60)
}
