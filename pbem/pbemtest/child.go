package pbemtest

import (
	"io"
	"os"
	"os/exec"
)

// StartChild starts the test binary again, running no test, with env
// added to its environment: the package's TestMain finds its variables
// there and runs a daemon in the child instead of the tests, so that a
// test can kill -9 it or run several. The child's standard error is the
// test's; its standard output is returned, for what it says (that it is
// ready) and must be read to the end so that it never blocks writing.
func StartChild(t TB, env ...string) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}
