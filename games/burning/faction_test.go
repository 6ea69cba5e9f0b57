package burning

import (
	"strconv"
	"strings"
	"testing"
)

// printedRes reads a price cell of the original's tables as printed, with
// its Cyrillic look-alike letters (N24): "10 М 10 С" is 10 M 10 C.
func printedRes(t *testing.T, cell string) Res {
	t.Helper()
	var r Res
	f := strings.Fields(cell)
	if len(f)%2 != 0 {
		t.Fatalf("price %q is not number-letter pairs", cell)
	}
	for i := 0; i < len(f); i += 2 {
		n, err := strconv.Atoi(f[i])
		if err != nil {
			t.Fatalf("price %q: %v", cell, err)
		}
		switch f[i+1] {
		case "B", "В":
			r.B += n
		case "C", "С":
			r.C += n
		case "F":
			r.F += n
		case "M", "М":
			r.M += n
		default:
			t.Fatalf("price %q: no resource %q", cell, f[i+1])
		}
	}
	return r
}

// TestPriceTablesAsPrinted compares every number of the three factions'
// tables in seeds/burning-planets.ru.md (ships, buildings, defences, space
// structures) with the code, row by row, the prices copied as printed with
// their Cyrillic letters (003-G25, N7: odd prices such as the Xenos' 10 M
// drilling rig are kept). A die, shield or speed of 0 is a blank cell.
func TestPriceTablesAsPrinted(t *testing.T) {
	type row struct {
		item               string
		name               string
		die, shield, speed int
		price              string
	}
	tables := map[string][]row{
		"humans": {
			{Small, "Spear", 4, 0, 4, "5 M 5 F"},
			{Medium, "Hammer", 6, 1, 3, "10 M 10 F"},
			{Large, "Eagle", 8, 3, 2, "20 M 20 F"},
			{Huge, "Obliterator", 20, 6, 1, "100 M 100 F"},
			{Cargo, "Cargo ship", 6, 2, 3, "15 M 15 F"},
			{Furnace, "", 0, 0, 0, "10 С"},
			{Greenhouse, "", 0, 0, 0, "10 В"},
			{Spaceport, "", 0, 0, 0, "5 С 5 М"},
			{CannonS, "", 8, 4, 0, "10 М 10 С"},
			{Tower, "", 12, 6, 0, "50 М 50 С"},
			{Rig, "", 4, 2, 0, "10 М"},
			{Habitat, "", 4, 2, 0, "10 F"},
			{Station, "", 8, 4, 0, "10 М 10 F"},
		},
		"digitals": {
			{Small, "Byte", 4, 0, 4, "10 М"},
			{Medium, "Kilo", 6, 1, 3, "20 М"},
			{Large, "Mega", 8, 3, 2, "40 М"},
			{Huge, "Tera", 20, 6, 1, "200 М"},
			{Cargo, "Cargo ship", 6, 2, 3, "30 М"},
			{Furnace, "", 0, 0, 0, "10 С"},
			{Greenhouse, "", 0, 0, 0, "10 В"},
			{Spaceport, "", 0, 0, 0, "5 С 5 М"},
			{CannonS, "", 8, 4, 0, "10 М 10 С"},
			{Tower, "", 12, 6, 0, "50 М 50 С"},
			{Rig, "", 4, 2, 0, "10 М"},
			{Habitat, "", 4, 2, 0, "10 F"},
			{Station, "", 8, 4, 0, "20 М"},
		},
		"xenos": {
			{Small, "Scout", 4, 0, 4, "10 F"},
			{Medium, "Hunter", 6, 1, 3, "20 F"},
			{Large, "Butcher", 8, 3, 2, "40 F"},
			{Huge, "Devourer", 20, 6, 1, "200 F"},
			{Cargo, "Cargo ship", 6, 2, 3, "30 F"}, // N6: "d6 defence only"
			{Furnace, "", 0, 0, 0, "10 С"},
			{Greenhouse, "", 0, 0, 0, "10 В"},
			{Spaceport, "", 0, 0, 0, "5 В 5 F"},
			{CannonS, "", 8, 4, 0, "10 F 10 В"},
			{Tower, "", 12, 6, 0, "50 F 50 В"},
			{Rig, "", 4, 2, 0, "10 М"},
			{Habitat, "", 4, 2, 0, "10 F"},
			{Station, "", 8, 4, 0, "20 F"},
		},
	}
	homes := map[string]string{"humans": Fair, "digitals": Harsh, "xenos": Water}
	if len(factions) != len(tables) {
		t.Fatalf("%d factions in the code, %d printed", len(factions), len(tables))
	}
	for name, rows := range tables {
		f, ok := factions[name]
		if !ok {
			t.Fatalf("no faction %s", name)
		}
		if f.Home != homes[name] {
			t.Errorf("%s: home biome %s, printed %s", name, f.Home, homes[name])
		}
		if len(f.Ships)+len(f.Builds) != len(rows) {
			t.Errorf("%s: %d ships and structures in the code, %d printed rows", name, len(f.Ships)+len(f.Builds), len(rows))
		}
		for _, r := range rows {
			u, ok := f.Ships[r.item]
			if !ok {
				u, ok = f.Builds[r.item]
			}
			if !ok {
				t.Errorf("%s: no %s", name, r.item)
				continue
			}
			want := Unit{Name: u.Name, Die: r.die, Shield: r.shield, Speed: r.speed, Price: printedRes(t, r.price)}
			if r.name != "" {
				want.Name = r.name
			}
			if u != want {
				t.Errorf("%s %s: code %+v, printed %+v", name, r.item, u, want)
			}
		}
	}
}

// TestProducts checks the "Product" column, the same in the three tables:
// mountain 1 C, forest 1 B, furnace 1 M, greenhouse 1 F, rig 1 C 1 M,
// habitat 1 B 1 F; spaceports, defences and stations produce nothing
// (003-F9).
func TestProducts(t *testing.T) {
	for kind, want := range map[string]string{
		Mountain: "1 С", Forest: "1 В", Furnace: "1 М", Greenhouse: "1 F",
		Rig: "1 С 1 М", Habitat: "1 В 1 F",
		Spaceport: "", CannonS: "", Tower: "", Station: "",
	} {
		if got := product(kind); got != printedRes(t, want) {
			t.Errorf("%s produces %v, printed %q", kind, got, want)
		}
	}
}
