package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A recorded `go test -json` stream: a passing package, a skipped test with
// its reason, a table of subtests skipped for one reason, and a failure.
const stream = `{"Action":"start","Package":"orrery/a"}
{"Action":"run","Package":"orrery/a","Test":"TestOK"}
{"Action":"output","Package":"orrery/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"pass","Package":"orrery/a","Test":"TestOK"}
{"Action":"run","Package":"orrery/a","Test":"TestMail"}
{"Action":"output","Package":"orrery/a","Test":"TestMail","Output":"=== RUN   TestMail\n"}
{"Action":"output","Package":"orrery/a","Test":"TestMail","Output":"    e2e_test.go:50: end-to-end mail tests need Dovecot and Postfix on loopback: run\n"}
{"Action":"output","Package":"orrery/a","Test":"TestMail","Output":"          scripts/mailstack.sh start\n"}
{"Action":"output","Package":"orrery/a","Test":"TestMail","Output":"--- SKIP: TestMail (0.00s)\n"}
{"Action":"skip","Package":"orrery/a","Test":"TestMail"}
{"Action":"output","Package":"orrery/a","Output":"PASS\n"}
{"Action":"output","Package":"orrery/a","Output":"ok  \torrery/a\t0.010s\n"}
{"Action":"pass","Package":"orrery/a"}
{"Action":"output","Package":"orrery/b","Test":"TestHostile/c1/real","Output":"--- SKIP: TestHostile/c1/real (0.00s)\n"}
{"Action":"output","Package":"orrery/b","Test":"TestHostile/c1/real","Output":"    hostile_test.go:80: no servers\n"}
{"Action":"skip","Package":"orrery/b","Test":"TestHostile/c1/real"}
` + `{"Action":"output","Package":"orrery/b","Test":"TestHostile/c2/real","Output":"--- SKIP: TestHostile/c2/real (0.00s)\n"}
{"Action":"output","Package":"orrery/b","Test":"TestHostile/c2/real","Output":"    hostile_test.go:80: no servers\n"}
{"Action":"skip","Package":"orrery/b","Test":"TestHostile/c2/real"}
{"Action":"output","Package":"orrery/b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"orrery/b","Test":"TestBad","Output":"    b_test.go:9: want 2, got 3\n"}
{"Action":"output","Package":"orrery/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"orrery/b","Test":"TestBad"}
{"Action":"output","Package":"orrery/b","Output":"FAIL\torrery/b\t0.020s\n"}
{"Action":"fail","Package":"orrery/b"}
`

func TestSummary(t *testing.T) {
	got := summarize(t, stream)
	assert.Equal(t, `ok  	orrery/a	0.010s
    b_test.go:9: want 2, got 3
--- FAIL: TestBad (0.00s)
FAIL	orrery/b	0.020s

SKIPPED: 3 tests did not run here:
  orrery/a: TestMail
      end-to-end mail tests need Dovecot and Postfix on loopback: run
      scripts/mailstack.sh start
  orrery/b: TestHostile/c1/real, TestHostile/c2/real
      no servers
1 passed, 1 failed, 3 skipped
`, got)
}

// One skipped test is counted as one: "SKIPPED: 1 test did not run here".
func TestSummaryOneSkipped(t *testing.T) {
	got := summarize(t, strings.Join(strings.Split(stream, "\n")[:13], "\n")+"\n")
	assert.Contains(t, got, "\nSKIPPED: 1 test did not run here:\n")
	assert.Contains(t, got, "1 passed, 0 failed, 1 skipped\n")
}

// A test that never ended because its package timed out is named, with its
// log and the start of the panic, and counted as failed; the package line
// comes after it, as in plain go test.
func TestSummaryTimedOut(t *testing.T) {
	stream := `{"Action":"run","Package":"orrery/c","Test":"TestQuick"}
{"Action":"pass","Package":"orrery/c","Test":"TestQuick"}
{"Action":"run","Package":"orrery/c","Test":"TestSlow"}
{"Action":"output","Package":"orrery/c","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}
{"Action":"output","Package":"orrery/c","Test":"TestSlow","Output":"    c_test.go:4: waiting for the thing\n"}
{"Action":"output","Package":"orrery/c","Test":"TestSlow","Output":"panic: test timed out after 1s\n"}
{"Action":"output","Package":"orrery/c","Test":"TestSlow","Output":"\trunning tests:\n"}
{"Action":"output","Package":"orrery/c","Test":"TestSlow","Output":"\t\tTestSlow (1s)\n"}
` + strings.Repeat(`{"Action":"output","Package":"orrery/c","Test":"TestSlow","Output":"goroutine dump\n"}
`, 100) + `{"Action":"output","Package":"orrery/c","Output":"FAIL\torrery/c\t1.008s\n"}
{"Action":"fail","Package":"orrery/c","Elapsed":1.01}
`
	got := summarize(t, stream)
	assert.True(t, strings.HasPrefix(got, "--- UNFINISHED: TestSlow (the package failed while it ran)\n    c_test.go:4: waiting for the thing\npanic: test timed out after 1s\n"), got)
	assert.Contains(t, got, "    ... 44 more lines (run the test alone with go test -run to see them)\nFAIL\torrery/c\t1.008s\n")
	assert.Equal(t, 60, strings.Count(got[:strings.Index(got, "    ...")], "\n")-1)
	assert.True(t, strings.HasSuffix(got, "1 passed, 1 failed, 0 skipped\n"), got)
}

// summarize is what testsum prints for a go test -json stream.
func summarize(t *testing.T, stream string) string {
	t.Helper()
	var out bytes.Buffer
	s := &summary{out: &out, buffered: map[string][]string{}}
	if err := s.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	s.report()
	return out.String()
}

// In a -short run a test that says it runs without -short is counted
// apart, not listed as skipped; a skip for any other reason (no servers)
// still is.
func TestSummaryShortRun(t *testing.T) {
	stream := `{"Action":"output","Package":"orrery/d","Test":"TestWhole","Output":"    d_test.go:5: whole game: runs without -short\n"}
{"Action":"skip","Package":"orrery/d","Test":"TestWhole"}
{"Action":"output","Package":"orrery/d","Test":"TestReal","Output":"    d_test.go:9: no servers\n"}
{"Action":"skip","Package":"orrery/d","Test":"TestReal"}
{"Action":"pass","Package":"orrery/d","Test":"TestQuick"}
`
	var out bytes.Buffer
	s := &summary{out: &out, short: true, buffered: map[string][]string{}}
	if err := s.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	s.report()
	got := out.String()
	assert.Contains(t, got, "SKIPPED: 1 test did not run here:\n  orrery/d: TestReal\n")
	assert.NotContains(t, got, "TestWhole")
	assert.Contains(t, got, "1 test left to the full run (they run without -short)\n1 passed, 0 failed, 1 skipped\n")
	// Without -short the same stream lists both.
	assert.Contains(t, summarize(t, stream), "SKIPPED: 2 tests did not run here:")
}
