package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
)

// orders -f - says it is reading standard input when that is a terminal
// (a pseudo-terminal here), and not when it is a pipe, a file or /dev/null.
func TestOrdersOnATerminalSaysSo(t *testing.T) {
	assert.False(t, isTerminal(strings.NewReader("")))
	devnull, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer devnull.Close()
	assert.False(t, isTerminal(&recorder{r: devnull}), "/dev/null taken for a terminal")

	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here")
	}
	defer master.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR, 0)
	require.NoError(t, err)
	defer slave.Close()
	assert.True(t, isTerminal(&recorder{r: slave}))

	db := filepath.Join(t.TempDir(), "o.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	// Typed at the terminal: a line, then Ctrl-D.
	_, err = master.Write([]byte("PUSH 2\n\x04"))
	require.NoError(t, err)
	var out, errOut bytes.Buffer
	e := &env{stdin: slave, stdout: &out, stderr: &errOut, rulesets: []engine.Ruleset{toy.Ruleset()}}
	require.NoError(t, run(context.Background(), e, []string{"orders", "g", "--as", "ann", "-f", "-", "--db", db}))
	assert.Contains(t, errOut.String(), "reading orders from standard input; end with Ctrl-D")
	assert.Contains(t, out.String(), "PUSH 2")

	out.Reset()
	errOut.Reset()
	e = &env{stdin: strings.NewReader("PUSH 1\n"), stdout: &out, stderr: &errOut, rulesets: []engine.Ruleset{toy.Ruleset()}}
	require.NoError(t, run(context.Background(), e, []string{"orders", "g", "--as", "bob", "-f", "-", "--db", db}))
	assert.Empty(t, errOut.String(), "a pipe is not a terminal")
}
