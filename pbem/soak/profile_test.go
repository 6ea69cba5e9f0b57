//go:build soak

package soak

import (
	"flag"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"testing"
)

var (
	flagCPUProfile = flag.String("scale.cpuprofile", "", "backlog: write a CPU profile of this process (the daemons run in it) during each drain to this file (go tool pprof); a later drain overwrites it")
	flagTrace      = flag.String("scale.trace", "", "backlog: write an execution trace of each drain to this file (go tool trace), to see where the daemon waits; a later drain overwrites it")
)

// startDrainProfile starts the CPU profile and the execution trace the
// flags ask for, and returns what stops them: the drain's own time only,
// not the raw limits' (they run in this process too).
func startDrainProfile(t *testing.T) (stop func()) {
	t.Helper()
	var stops []func()
	if *flagCPUProfile != "" {
		f, err := os.Create(*flagCPUProfile)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if *flagTrace != "" {
		f, err := os.Create(*flagTrace)
		if err != nil {
			t.Fatal(err)
		}
		if err := trace.Start(f); err != nil {
			t.Fatal(err)
		}
		stops = append(stops, func() { trace.Stop(); f.Close() })
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
