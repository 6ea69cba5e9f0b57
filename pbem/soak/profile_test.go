//go:build soak

package soak

import (
	"flag"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"testing"
)

var (
	flagCPUProfile = flag.String("scale.cpuprofile", "", "backlog: write a CPU profile of this process (the daemons run in it) during each drain to this file (go tool pprof); a later drain overwrites it. Scale-out: each daemon process writes its own, to this name plus .outN-I (N daemons, the I-th)")
	flagTrace      = flag.String("scale.trace", "", "backlog: write an execution trace of each drain to this file (go tool trace), to see where the daemon waits; a later drain overwrites it")
)

// startDrainProfile starts the CPU profile and the execution trace the
// flags ask for, and returns what stops them: the drain's own time only,
// not the raw limits' (they run in this process too).
func startDrainProfile(t *testing.T) (stop func()) {
	t.Helper()
	var stops []func()
	// to starts one of them writing to path, unless path is empty.
	to := func(path string, start func(io.Writer) error, stop func()) {
		if path == "" {
			return
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := start(f); err != nil {
			t.Fatal(err)
		}
		stops = append(stops, func() { stop(); f.Close() })
	}
	to(*flagCPUProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
	to(*flagTrace, trace.Start, trace.Stop)
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
