//go:build soak

package soak

import "testing"

func partGrowth(t *testing.T, s stack, rep *report) { t.Skip("todo") }
