package burning

import (
	"strings"
	"unicode"

	"orrery/engine/lang"
)

// Every sentence of the game is a message (lang.M): its English format
// is its id, and ru.po (catalog.go) holds its Russian. Events, prompts and
// order errors carry their messages to the mail side, which writes them
// in the reader's language when a mail is (see State.Msgs for games
// recorded before); the board and status are written in their view's
// language with render. TestEveryMessageHasRussian (games) fails on an
// id without its Russian.

const (
	langEN = "en"
	langRU = "ru"
)

// render writes m in the language l ("en", "ru").
func render(l string, m lang.Msg) string {
	return lang.Render(lang.Env{Tag: lang.Tag(l), Catalogs: []*lang.Catalog{catalog}}, m)
}

// termMsg is the word a game key stands for (a structure, a tile, a ship
// class, a biome, a faction, a catastrophe), as a message.
func termMsg(k string) (lang.Msg, bool) {
	var m lang.Msg
	switch k {
	case Forest:
		m = lang.M("forest")
	case Mountain:
		m = lang.M("mountain")
	case Furnace:
		m = lang.M("blast furnace")
	case Greenhouse:
		m = lang.M("greenhouse")
	case Spaceport:
		m = lang.M("spaceport")
	case CannonS:
		m = lang.M("cannon")
	case Tower:
		m = lang.M("tower")
	case Rig:
		m = lang.M("drilling rig")
	case Habitat:
		m = lang.M("habitat")
	case Station:
		m = lang.M("orbital station")
	case Small:
		m = lang.M("small")
	case Medium:
		m = lang.M("medium")
	case Large:
		m = lang.M("large")
	case Huge:
		m = lang.M("huge")
	case Cargo:
		m = lang.M("cargo")
	case Fair:
		m = lang.M("Fair")
	case Harsh:
		m = lang.M("Harsh")
	case Water:
		m = lang.M("Water")
	case "humans":
		m = lang.M("Humans")
	case "digitals":
		m = lang.M("Digitals")
	case "xenos":
		m = lang.M("Xenos")
	case "asteroid":
		m = lang.M("asteroid")
	case "nobody":
		m = lang.M("nobody")
	case "nothing":
		m = lang.M("nothing")
	case "none":
		m = lang.M("none")
	case "climate anomaly":
		m = lang.M("climate anomaly")
	case "stellar wind":
		m = lang.M("stellar wind")
	default:
		return m, false
	}
	return m, true
}

// termKeys are the keys termMsg knows (for Translate).
var termKeys = []string{Forest, Mountain, Furnace, Greenhouse, Spaceport, CannonS, Tower, Rig, Habitat, Station,
	Small, Medium, Large, Huge, Cargo, Fair, Harsh, Water, "humans", "digitals", "xenos",
	"asteroid", "nobody", "nothing", "none", "climate anomaly", "stellar wind"}

// term is k's word as a message argument; a key it does not know is
// written as it is.
func term(k string) lang.Arg {
	if m, ok := termMsg(k); ok {
		return lang.ArgOf(m)
	}
	return lang.ArgOf(k)
}

// word is k's word in the language l.
func word(l, k string) string {
	if m, ok := termMsg(k); ok {
		return render(l, m)
	}
	return k
}

// aTermMsg is k's word with its indefinite article in English ("an
// orbital station", "a cannon"); Russian has none.
func aTermMsg(k string) (lang.Msg, bool) {
	var m lang.Msg
	switch k {
	case Forest:
		m = lang.M("a forest")
	case Mountain:
		m = lang.M("a mountain")
	case Furnace:
		m = lang.M("a blast furnace")
	case Greenhouse:
		m = lang.M("a greenhouse")
	case Spaceport:
		m = lang.M("a spaceport")
	case CannonS:
		m = lang.M("a cannon")
	case Tower:
		m = lang.M("a tower")
	case Rig:
		m = lang.M("a drilling rig")
	case Habitat:
		m = lang.M("a habitat")
	case Station:
		m = lang.M("an orbital station")
	case Fair:
		m = lang.M("a Fair")
	case Harsh:
		m = lang.M("a Harsh")
	case Water:
		m = lang.M("a Water")
	case "climate anomaly":
		m = lang.M("a climate anomaly")
	case "stellar wind":
		m = lang.M("a stellar wind")
	default:
		return m, false
	}
	return m, true
}

func aTerm(k string) lang.Arg {
	if m, ok := aTermMsg(k); ok {
		return lang.ArgOf(m)
	}
	return lang.ArgOf(lang.A(word(langEN, k)))
}

// capTermMsg is k's word capitalised, to start a sentence ("Cannon (bob)
// at K6 attacks …").
func capTermMsg(k string) (lang.Msg, bool) {
	var m lang.Msg
	switch k {
	case Forest:
		m = lang.M("Forest")
	case Mountain:
		m = lang.M("Mountain")
	case Furnace:
		m = lang.M("Blast furnace")
	case Greenhouse:
		m = lang.M("Greenhouse")
	case Spaceport:
		m = lang.M("Spaceport")
	case CannonS:
		m = lang.M("Cannon")
	case Tower:
		m = lang.M("Tower")
	case Rig:
		m = lang.M("Drilling rig")
	case Habitat:
		m = lang.M("Habitat")
	case Station:
		m = lang.M("Orbital station")
	default:
		return m, false
	}
	return m, true
}

func capTerm(k string) lang.Arg {
	if m, ok := capTermMsg(k); ok {
		return lang.ArgOf(m)
	}
	w := []rune(word(langEN, k))
	if len(w) > 0 {
		w[0] = unicode.ToUpper(w[0])
	}
	return lang.ArgOf(string(w))
}

// Counts with their nouns, in the reader's language: "1 forest", "5 лесов".
func forests(n int) lang.Msg   { return lang.MN("%d forest", "%d forests", n) }
func mountains(n int) lang.Msg { return lang.MN("%d mountain", "%d mountains", n) }
func steps(n int) lang.Msg     { return lang.MN("%d step", "%d steps", n) }
func times(n int) lang.Msg     { return lang.MN("%d time", "%d times", n) }
func lineCount(n int) lang.Msg { return lang.MN("%d line", "%d lines", n) }

// sizeBiome is a planet's size and biome: "medium Fair".
func sizeBiome(size int, biome string) lang.Msg {
	switch size {
	case 1:
		return lang.M("small %s", term(biome))
	case 2:
		return lang.M("medium %s", term(biome))
	}
	return lang.M("large %s", term(biome))
}

// fold makes order words comparable whatever the keyboard: upper case, and
// Cyrillic letters that look like Latin ones become Latin (N24 and 003-G24
// ask for С, В, М; we fold every look-alike, so a cell typed "К6" or a
// resource typed "10 В" is read as meant).
func fold(s string) string {
	s = strings.ToUpper(s)
	return lookalike.Replace(s)
}

var lookalike = strings.NewReplacer(
	"А", "A", "В", "B", "Е", "E", "Ё", "E", "К", "K", "М", "M", "Н", "H",
	"О", "O", "Р", "P", "С", "C", "Т", "T", "Х", "X", "У", "Y",
)

// diceRU translates the words of the recorded setup dice.
var diceRU = strings.NewReplacer("sections", "участков", "section", "участок", "size", "размер", "biome", "биом",
	"forests", "леса", "mountains", "горы", "asteroids", "астероиды", "asteroid", "астероид",
	"cell chosen by", "клетку выбрал", "cell", "клетка", "dropped", "не размещён")

// diceText gives a record of setup dice in lang.
func diceText(lang, s string) string {
	if lang == langRU {
		return diceRU.Replace(s)
	}
	return s
}
