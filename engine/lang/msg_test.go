package lang

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

func TestMsgRendersInTheReadersLanguage(t *testing.T) {
	c := NewCatalog()
	c.Add(Russian, "%s attacks %s", "%s атакует %s")
	c.Add(Russian, "a cannon at %s", "пушка на %s")
	c.Add(Russian, "%d ship", "%d корабль", "%d корабля", "%d кораблей")
	c.Add(Russian, "Reminder: due by %s (%s from now).", "Напоминание: срок — %s (осталось %s).")
	c.Add(Russian, "%s won.", "%s побеждает.")
	due := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	msk := time.FixedZone("MSK", 3*3600)
	cases := []struct {
		m      Msg
		en, ru string
	}{
		{M("%s attacks %s", "ann", M("a cannon at %s", "K6")), "ann attacks a cannon at K6", "ann атакует пушка на K6"},
		{MN("%d ship", "%d ships", 1), "1 ship", "1 корабль"},
		{MN("%d ship", "%d ships", 3), "3 ships", "3 корабля"},
		{MN("%d ship", "%d ships", 25), "25 ships", "25 кораблей"},
		{M("Reminder: due by %s (%s from now).", due, 27*time.Hour), "Reminder: due by Mon 2026-11-23 18:00 UTC (1 day 3 hours from now).", "Напоминание: срок — Mon 2026-11-23 21:00 MSK (осталось 1 день 3 часа)."},
		{M("%s won.", And("ann", "bob", "cyd")), "ann, bob and cyd won.", "ann, bob и cyd побеждает."},
		{M("100%% done"), "100% done", "100% done"},
		{M("untranslated %s", "x"), "untranslated x", "untranslated x"},
	}
	for _, tc := range cases {
		b, err := json.Marshal(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		var back Msg
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if got := back.English(); got != tc.en {
			t.Errorf("%s in English: %q, want %q", b, got, tc.en)
		}
		if got := Render(Env{Tag: Russian, Zone: msk, Catalogs: []*Catalog{nil, c}}, back); got != tc.ru {
			t.Errorf("%s in Russian: %q, want %q", b, got, tc.ru)
		}
	}
}

func TestUsesFindsEveryIDAndMissingNamesTheUntranslated(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import "orrery/engine/lang"

const greeting = "Hello %s"

func tell(id string, args ...any) lang.Msg { return lang.M(id, args...) }

func f(n int) []lang.Msg {
	return []lang.Msg{lang.M(greeting, "ann"), lang.MN("%d ship", "%d ships", n), tell("Bye"), lang.M("Reworded %s", "x")}
}
`
	if err := writeFile(dir+"/x.go", src); err != nil {
		t.Fatal(err)
	}
	uses, err := Uses([]string{dir}, "tell")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range uses {
		ids = append(ids, u.ID+"|"+u.Other)
	}
	if got, want := strings.Join(ids, ","), "Hello %s|,%d ship|%d ships,Bye|,Reworded %s|"; got != want {
		t.Fatalf("uses %q, want %q", got, want)
	}
	c := NewCatalog()
	c.Add(Russian, "Hello %s", "Привет, %s")
	c.Add(Russian, "%d ship", "%d корабль", "%d корабля")
	c.Add(Russian, "Bye", "Пока, %s")
	miss := strings.Join(Missing(uses, Supported, c), "\n")
	for _, want := range []string{`no translation of "Reworded %s"`, `"%d ship" needs 3 plural forms, has 2`, `"Bye" takes 1 arguments, not 0`} {
		if !strings.Contains(miss, want) {
			t.Errorf("Missing does not say %s:\n%s", want, miss)
		}
	}
	if strings.Contains(miss, "Hello") {
		t.Errorf("Missing names a translated id:\n%s", miss)
	}
	if err := writeFile(dir+"/y.go", "package x\n\nimport \"orrery/engine/lang\"\n\nfunc g(s string) lang.Msg { return lang.M(s) }\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := Uses([]string{dir}); err == nil || !strings.Contains(err.Error(), "not a constant") {
		t.Errorf("an id computed at run time: %v", err)
	}
}

func writeFile(name, s string) error { return os.WriteFile(name, []byte(s), 0o644) }
