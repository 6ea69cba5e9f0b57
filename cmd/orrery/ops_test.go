package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
