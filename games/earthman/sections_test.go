package earthman

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// caseText is a rule case's description: the text before its first
// section.
func caseText(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text, _, _ := strings.Cut(string(b), "\n-- ")
	return text
}

// sectionRef finds the section numbers a full rule case names: "2.4.1",
// "5.13", and "Section 4" for the one-number section.
var sectionRef = regexp.MustCompile(`\b\d+(?:\.\d+)+\b|Section \d+\b`)

// TestFullSectionsHaveCases: every numbered section of the full rules
// (seeds/earthmans-burden.md) has at least one rule case in
// testdata/full whose file name starts with its number or whose
// description names it. A case names a section only if it tests it.
// 6.5 Espionage is unwritten and left out (README).
func TestFullSectionsHaveCases(t *testing.T) {
	sections := []string{
		"1.1", "1.2", "1.2.1", "1.2.2", "1.2.3", "1.2.4", "1.3", "1.4", "1.5", "1.6",
		"2.1", "2.2.1", "2.2.2", "2.3.1", "2.3.2", "2.3.3", "2.3.4",
		"2.4.1", "2.4.2", "2.4.3", "2.4.4", "2.5.1", "2.5.2", "2.5.3", "2.5.4", "2.6",
		"3.1", "3.2", "3.3", "3.4", "4",
		"5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "5.9", "5.10", "5.11", "5.12", "5.13",
		"6.1", "6.2", "6.3", "6.4",
	}
	files, err := filepath.Glob("testdata/full/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule cases: %v", err)
	}
	covered := map[string][]string{}
	for _, f := range files {
		base := filepath.Base(f)
		named := map[string]bool{}
		for _, ref := range sectionRef.FindAllString(caseText(t, f), -1) {
			named[strings.TrimPrefix(ref, "Section ")] = true
		}
		for _, s := range sections {
			if named[s] || strings.HasPrefix(base, s+"-") {
				covered[s] = append(covered[s], base)
			}
		}
	}
	for _, s := range sections {
		if len(covered[s]) == 0 {
			t.Errorf("section %s of the full rules has no rule case", s)
		}
	}
}

// TestClassicSectionsHaveCases: every section of the classic rules
// (seeds/earthmans-burden-classic.md; it numbers only its four phases)
// has rule cases in testdata/cases, each of which says what it tests in
// words of that section.
func TestClassicSectionsHaveCases(t *testing.T) {
	for _, c := range []struct {
		section string
		word    string // the description of each case uses it
		cases   []string
	}{
		{"The Board (worldward, skyward)", "move", []string{"movement", "route-destination"}},
		{"Pieces (one group a phase)", "group", []string{"fire-group-cut-down", "construction-groups"}},
		{"Setup", "Setup", []string{"setup"}},
		{"phase 1: movement", "Movement", []string{"route-destination", "route-replace-cancel"}},
		{"phase 2: combat", "Combat", []string{"fire-save-on-6", "coup-save-on-4", "fire-second-group-no-target", "fire-group-cut-down"}},
		{"phase 2: the UN on Earth", "UN", []string{"coup-earth-un-aid-and-reprisal", "coup-earth-un-fleets-only", "reprisal-needs-un-fleets", "reprisal-no-un-units", "reprisal-once-per-phase"}},
		{"phase 3: construction", "Construction", []string{"construction-groups", "construction-earth-un-reroll", "construction-earth-no-un-devs"}},
		{"phase 4: development", "Development", []string{"development-until", "development-pool-shrinks"}},
		{"phase 4: the UN claims Earth", "claims", []string{"coup-earth-un-aid-and-reprisal", "reprisal-no-un-units", "coup-earth-un-fleets-only"}},
		{"extraordinary actions", "Extraordinary", []string{"extraordinary-anytime"}},
		{"extraordinary actions: the gift condition", "attacked", []string{"gift-barred-after-attack"}},
		{"Victory", "Victory", []string{"victory-agreement", "victory-draw"}},
		{"Combat: how much damage (save bands)", "save", []string{"fire-no-save-excess-wasted", "fire-save-on-6", "coup-save-on-4", "coup-earth-un-fleets-only"}},
		{"Combat: what the damage does", "development", []string{"fire-no-save-excess-wasted", "coup-save-on-4"}},
	} {
		for _, name := range c.cases {
			file := filepath.Join("testdata/cases", name+".txtar")
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: no rule case %s", c.section, name)
				continue
			}
			if !strings.Contains(strings.ToLower(caseText(t, file)), strings.ToLower(c.word)) {
				t.Errorf("%s: case %s does not say %q", c.section, name, c.word)
			}
		}
	}
}
