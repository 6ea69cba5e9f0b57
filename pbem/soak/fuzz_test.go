//go:build soak

package soak

import (
	"context"
	"flag"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	flagFuzzTime    = flag.String("soak.fuzztime", "20s", "fuzz: how long each fuzz target runs: a duration (20s, 30m), or a count of executions (10000000x), as go test -fuzztime takes")
	flagFuzzTargets = flag.String("soak.fuzztargets", "", "fuzz: run only the targets whose \"package Name\" matches this regular expression")
)

// fuzzTargets are every fuzz target of the tree: MIME extraction, the
// command router and its classifier of order lines, delivery status
// notifications, and each ruleset's order parser. A new Fuzz function
// belongs here too (TestFuzzTargetsListed).
var fuzzTargets = []struct{ Pkg, Name string }{
	{"orrery/pbem/inmail", "FuzzParse"},
	{"orrery/pbem/inmail", "FuzzStripQuotes"},
	{"orrery/pbem/route", "FuzzParse"},
	{"orrery/pbem/route", "FuzzClassifier"},
	{"orrery/pbem/bounce", "FuzzParse"},
	{"orrery/games/orbital", "FuzzOrders"},
	{"orrery/games/prosper", "FuzzOrdersRoundTrip"},
	{"orrery/games/earthman", "FuzzParseRoundTrip"},
	{"orrery/games/earthman", "FuzzFullParseRoundTrip"},
	{"orrery/games/burning", "FuzzParse"},
	{"orrery/games/burning", "FuzzPlacement"},
}

// execsRE reads the fuzzer's progress lines: "fuzz: elapsed: 3s, execs: 1234 (411/sec), ...".
var execsRE = regexp.MustCompile(`execs: (\d+)`)

// partFuzz runs each fuzz target for -soak.fuzztime, one after the other
// (the machine has few cores), and reports its executions and whether it
// found a failure. A failing input is written by go test into the
// package's testdata/fuzz, where it stays as a regression seed once the
// bug is fixed.
func partFuzz(t *testing.T, _ stack, rep *report) {
	only, err := regexp.Compile(*flagFuzzTargets)
	if err != nil {
		t.Fatalf("-soak.fuzztargets: %v", err)
	}
	// A count of executions has no time limit of its own: allow a day.
	limit := 24 * time.Hour
	if d, err := time.ParseDuration(*flagFuzzTime); err == nil {
		limit = d
	}
	for _, ft := range fuzzTargets {
		short := strings.TrimPrefix(ft.Pkg, "orrery/") + " " + ft.Name
		if !only.MatchString(short) {
			continue
		}
		// Building the package with coverage instrumentation takes a
		// while on a loaded machine; the run itself is -fuzztime.
		ctx, cancel := context.WithTimeout(context.Background(), limit+5*time.Minute)
		start := time.Now()
		cmd := exec.CommandContext(ctx, "go", "test", "-run=^$", "-fuzz=^"+ft.Name+"$", "-fuzztime="+*flagFuzzTime, ft.Pkg)
		out, err := cmd.CombinedOutput()
		took := time.Since(start).Round(time.Second)
		cancel()
		execs := int64(0)
		for _, m := range execsRE.FindAllSubmatch(out, -1) {
			if n, _ := strconv.ParseInt(string(m[1]), 10, 64); n > execs {
				execs = n
			}
		}
		ok := err == nil
		value := fmt.Sprintf("%s execs in %s (-fuzztime=%s), no failure", thousands(execs), took, *flagFuzzTime)
		if !ok {
			value = fmt.Sprintf("%s execs, **failed** (%v)", thousands(execs), err)
			if i := strings.Index(string(out), "Failing input written to "); i >= 0 {
				line, _, _ := strings.Cut(string(out[i:]), "\n")
				value += ": " + strings.TrimPrefix(line, "Failing input written to ")
			}
			t.Errorf("%s:\n%s", short, out)
		}
		t.Logf("%s: %s", short, value)
		target := "no failure"
		if strings.HasSuffix(*flagFuzzTime, "x") {
			target = "no failure in " + strings.TrimSuffix(*flagFuzzTime, "x") + " execs"
		}
		rep.add("fuzz", short, value, target, ptr(ok))
	}
}

// thousands writes n with commas: 1,234,567.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
