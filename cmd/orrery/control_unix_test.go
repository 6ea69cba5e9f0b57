//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The control socket is born owner-only: no chmod after the bind, so no
// instant in which another user may connect; and the umask is given back.
func TestControlSocketBornOwnerOnly(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "x.sock")
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	ln, err := listenOwnerOnly(sock)
	require.NoError(t, err)
	defer ln.Close()
	st, err := os.Stat(sock)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	assert.Equal(t, 0o022, syscall.Umask(0o022), "the umask was not restored")
}
