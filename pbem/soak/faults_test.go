//go:build soak

package soak

import "testing"

func partFaults(t *testing.T, s stack, rep *report) { t.Skip("todo") }
