package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionText(t *testing.T) {
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want []string
		not  []string
	}{
		{"stamped", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "4060cd5abc"}, {Key: "vcs.time", Value: "2026-11-24T10:00:00Z"}, {Key: "vcs.modified", Value: "false"},
			{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}}},
			[]string{"orrery v1.2.3\n", "revision  4060cd5abc\n", "committed 2026-11-24T10:00:00Z", "go        go1.26.8 linux/amd64"},
			[]string{"uncommitted", "unknown"}},
		{"modified", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}},
			[]string{"orrery (devel)", "revision  abc (with uncommitted changes)"}, nil},
		{"unstamped", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			[]string{"revision  unknown", "go install -buildvcs=true ./cmd/orrery"}, nil},
		{"no build info", nil, []string{"orrery unknown", "revision  unknown"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := versionText(c.bi)
			for _, w := range c.want {
				assert.Contains(t, out, w)
			}
			for _, w := range c.not {
				assert.NotContains(t, out, w)
			}
			for _, l := range strings.Split(out, "\n") {
				assert.LessOrEqual(t, len(l), 78, "line too long: %q", l)
			}
		})
	}
}

func TestVersionCommandAndFlag(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		out, err := cli(t, "", "", args...)
		require.NoError(t, err, "%v", args)
		assert.True(t, strings.HasPrefix(out, "orrery "), "%v printed %q", args, out)
		assert.Contains(t, out, "  go        go1.")
	}
}

// TestBuiltBinaryPrintsItsRevision builds orrery as the README says and
// checks that --version names the commit checked out. Go stamps the
// revision only in a checkout whose .git is a directory (not a worktree),
// and only with -buildvcs on, which this machine's go env turns off: the
// test asks for it.
func TestBuiltBinaryPrintsItsRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: runs without -short")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	if st, err := os.Stat(filepath.Join(root, ".git")); err != nil || !st.IsDir() {
		t.Skip("not a plain git clone (a worktree or an export): go stamps no revision here")
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("git: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "orrery")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/orrery")
	build.Dir = root
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), "revision  "+strings.TrimSpace(string(head)))
}
