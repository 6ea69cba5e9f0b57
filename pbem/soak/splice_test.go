//go:build soak

package soak

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScale's table replaces its own section of the report and nothing
// else, whether TestSoak's rewrite kept its opening marker or not.
func TestSpliceScale(t *testing.T) {
	md := "<!-- scale -->\n## Scale: one machine, new\n\nnew\n\n<!-- /scale -->\n"
	for _, c := range []struct{ name, in, want string }{
		{"markers", "# B\n\n<!-- scale -->\n## Scale: one machine, old\nold\n<!-- /scale -->\n## Hostile\nh\n",
			"# B\n\n" + md + "## Hostile\nh\n"},
		{"opening marker lost", "# B\n\n## Scale: one machine, old\nold\n<!-- /scale -->\n\n## Hostile\nh\n",
			"# B\n\n" + md + "\n## Hostile\nh\n"},
		{"no closing marker", "# B\n\n## Scale: one machine, old\nold\n\n## Hostile\nh\n",
			"# B\n\n" + md + "## Hostile\nh\n"},
		{"none yet", "# B\n\n## Hostile\nh\n", "# B\n\n## Hostile\nh\n\n" + md},
	} {
		path := filepath.Join(t.TempDir(), "b.md")
		if err := os.WriteFile(path, []byte(c.in), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := spliceScale(path, md); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
