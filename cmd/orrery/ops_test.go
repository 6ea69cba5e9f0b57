package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecretNew(t *testing.T) {
	out := must(t, "", "", "secret", "new")
	assert.Regexp(t, regexp.MustCompile(`^[a-z2-7]{26}\n$`), out)
	assert.NotEqual(t, out, must(t, "", "", "secret", "new"), "two secrets alike")

	file := filepath.Join(t.TempDir(), "gm-secret")
	out = must(t, "", "", "secret", "new", "--out", file)
	assert.Contains(t, out, "wrote a new GM secret to "+file+" (mode 0600)")
	st, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	data, _ := os.ReadFile(file)
	assert.NotContains(t, out, strings.TrimSpace(string(data)), "--out must not print the secret")

	_, err = cli(t, "", "", "secret", "new", "--out", file)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exists already")
	again, _ := os.ReadFile(file)
	assert.Equal(t, data, again, "an existing secret file was overwritten")
}

// game export leaves the secrets out unless asked; --out writes the file
// owner-only, also through a running daemon; importing a redacted export
// says what it lacks.
func TestExportSecrets(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	out := must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org")
	secret := regexp.MustCompile(`secret (\S+)`).FindStringSubmatch(out)[1]

	plain := must(t, db, "", "game", "export", "g")
	assert.NotContains(t, plain, secret)
	assert.Contains(t, plain, `"redacted": [`)
	assert.Contains(t, must(t, db, "", "game", "export", "g", "--with-secrets"), secret)

	_, err := cli(t, filepath.Join(dir, "other.db"), plain, "game", "import")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "made without its secrets")
	assert.Contains(t, err.Error(), "--with-secrets --out FILE")

	// An existing file readable by others is narrowed before it is written.
	file := filepath.Join(dir, "g.json")
	require.NoError(t, os.WriteFile(file, []byte("old"), 0o644))
	require.NoError(t, os.Chmod(file, 0o644))
	out = must(t, db, "", "game", "export", "g", "--with-secrets", "--out", file)
	assert.Contains(t, out, "wrote g to "+file+" (mode 0600), with its secrets")
	assertOwnerOnly(t, file)
	data, _ := os.ReadFile(file)
	assert.Contains(t, string(data), secret)
	out = must(t, filepath.Join(dir, "copy.db"), string(data), "game", "import")
	assert.Contains(t, out, "imported g")
}

func assertOwnerOnly(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), path)
}

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
