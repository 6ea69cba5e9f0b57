package burning

import (
	"fmt"
	"strings"
	"unicode"

	enlang "orrery/engine/lang"
)

// Every text of the game exists in English and Russian. English format
// strings are the keys; ru maps each to its Russian form. Arguments of type
// term are translated too (names of structures, classes, biomes, ...).
// TestEveryTextHasRussian checks that each format used in the code has an
// entry here.

// term is a word that is translated when a text is formatted.
type term string

const (
	langEN = "en"
	langRU = "ru"
)

var termsRU = map[string]string{
	Forest: "лес", Mountain: "гора", Furnace: "домна", Greenhouse: "теплица", Spaceport: "космодром",
	CannonS: "пушка", Tower: "башня", Rig: "буровая установка", Habitat: "местообитание", Station: "орбитальная станция",
	Small: "маленький", Medium: "средний", Large: "большой", Huge: "огромный", Cargo: "грузовой",
	Fair: "Fair", Harsh: "Harsh", Water: "Water",
	"humans": "Люди", "digitals": "Диджитал", "xenos": "Ксенос",
	"asteroid": "астероид", "nobody": "никто", "nothing": "ничего", "hidden": "скрыто", "none": "нет",
	"climate anomaly": "климатическая аномалия", "stellar wind": "звёздный ветер",
	"small planet": "маленькая", "medium planet": "средняя", "large planet": "большая",
}

var termsEN = map[string]string{
	Forest: "forest", Mountain: "mountain", Furnace: "blast furnace", Greenhouse: "greenhouse", Spaceport: "spaceport",
	CannonS: "cannon", Tower: "tower", Rig: "drilling rig", Habitat: "habitat", Station: "orbital station",
	"humans": "Humans", "digitals": "Digitals", "xenos": "Xenos", Fair: "Fair", Harsh: "Harsh", Water: "Water",
	"small planet": "small", "medium planet": "medium", "large planet": "large",
}

// tr formats an English format string in lang.
func tr(lang, format string, args ...any) string {
	if lang == langRU {
		if f, ok := ru[format]; ok {
			format = f
		}
	}
	args = append([]any(nil), args...)
	for i, a := range args {
		switch a := a.(type) {
		case term:
			args[i] = word(lang, string(a))
		case phrase:
			args[i] = tr(lang, a.format, a.args...)
		case num:
			if lang == langRU {
				args[i] = enlang.Count(enlang.Russian, a.n, a.ru[:]...)
			} else {
				args[i] = enlang.Count(enlang.English, a.n, a.en[:]...)
			}
		}
	}
	return fmt.Sprintf(format, args...)
}

// phrase is an argument that is itself a text to translate: "a cannon
// (bob) at K6" inside "%s attacks %s".
type phrase struct {
	format string
	args   []any
}

func say(format string, args ...any) phrase { return phrase{format, args} }

func word(lang, t string) string {
	if rest, ok := strings.CutPrefix(t, "A:"); ok {
		if lang == langRU {
			return word(lang, rest)
		}
		return enlang.A(word(lang, rest))
	}
	if rest, ok := strings.CutPrefix(t, "T:"); ok {
		// A capitalised word, to start a sentence.
		w := []rune(word(lang, rest))
		if len(w) > 0 {
			w[0] = unicode.ToUpper(w[0])
		}
		return string(w)
	}
	if lang == langRU {
		if w, ok := termsRU[t]; ok {
			return w
		}
	}
	if w, ok := termsEN[t]; ok {
		return w
	}
	return t
}

// num is a count with its noun in both languages, written through
// engine/lang in the reader's: "1 forest", "5 лесов".
type num struct {
	n  int
	en [2]string // one, other
	ru [3]string // one, few, many
}

func forests(n int) num {
	return num{n, [2]string{"forest", "forests"}, [3]string{"лес", "леса", "лесов"}}
}
func mountains(n int) num {
	return num{n, [2]string{"mountain", "mountains"}, [3]string{"гора", "горы", "гор"}}
}
func steps(n int) num {
	return num{n, [2]string{"step", "steps"}, [3]string{"шаг", "шага", "шагов"}}
}
func times(n int) num {
	return num{n, [2]string{"time", "times"}, [3]string{"раз", "раза", "раз"}}
}
func lineCount(n int) num {
	return num{n, [2]string{"line", "lines"}, [3]string{"строка", "строки", "строк"}}
}

// aTerm is a term with its indefinite article in English ("an orbital
// station", "a cannon"); Russian has none.
func aTerm[T ~string](k T) term { return term("A:" + string(k)) }

func sizeTerm(size int) term {
	return term([]string{"", "small planet", "medium planet", "large planet"}[size])
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

var ru = map[string]string{
	// What an order needs (the argument of "%s needs %s").
	"a structure: FURNACE, GREENHOUSE, SPACEPORT, CANNON or TOWER":         "сооружение: ДОМНА, ТЕПЛИЦА, КОСМОДРОМ, ПУШКА или БАШНЯ",
	"a space structure: RIG, HABITAT or STATION":                           "космическое сооружение: БУРОВАЯ, МЕСТООБИТАНИЕ или СТАНЦИЯ",
	"a planet and a cargo ship: BUY RIG AT Arda FOR 12":                    "планета и грузовой корабль: КУПИТЬ БУРОВАЯ НА Arda ДЛЯ 12",
	"a cargo ship number: BUY RIG AT Arda FOR 12":                          "номер грузового корабля: КУПИТЬ БУРОВАЯ НА Arda ДЛЯ 12",
	"a number of ships from 1 to 20":                                       "число кораблей от 1 до 20",
	"a ship class: SMALL, MEDIUM, LARGE, HUGE or CARGO":                    "класс корабля: МАЛЫЙ, СРЕДНИЙ, БОЛЬШОЙ, ОГРОМНЫЙ или ГРУЗОВОЙ",
	"a planet or the cell of an orbital station: MAKE 2 SMALL AT Arda":     "планета или клетка орбитальной станции: СОЗДАТЬ 2 МАЛЫЙ У Arda",
	"a ship number: SHIP 12 MOVE K6":                                       "номер корабля: КОРАБЛЬ 12 ЛЕТЕТЬ K6",
	"a planet":                                                             "планета",
	"a planet and an amount: LOAD Arda 10B":                                "планета и количество: ЗАГРУЗИТЬ Arda 10B",
	"a player":                                                             "игрок",
	"a player, a cargo ship and goods: OFFER bob SHIP 12 GIVE 20B GET 10M": "игрок, грузовой корабль и товары: ПРЕДЛОЖИТЬ bob КОРАБЛЬ 12 ОТДАТЬ 20B ПОЛУЧИТЬ 10M",
	"GIVE and/or GET with amounts: OFFER bob SHIP 12 GIVE 20B GET 10M":     "ОТДАТЬ и/или ПОЛУЧИТЬ с количествами: ПРЕДЛОЖИТЬ bob КОРАБЛЬ 12 ОТДАТЬ 20B ПОЛУЧИТЬ 10M",
	"a contract number: ACCEPT 3":                                          "номер договора: ПРИНЯТЬ 3",
	// Contract expiry.
	"Contract %d lapses at the start of turn %d unless cancelled before.":                  "Договор %d истекает в начале хода %d, если его не отменят раньше.",
	"Contract %d between %s and %s lapses: its time is up.":                                "Договор %d между %s и %s истёк: его срок вышел.",
	", lapses at the start of turn %d":                                                     ", истекает в начале хода %d",
	"TURNS needs a number of turns from 1 to %d, once: OFFER bob SHIP 12 GIVE 20B TURNS 5": "ХОДОВ требует число ходов от 1 до %d, один раз: ПРЕДЛОЖИТЬ bob КОРАБЛЬ 12 ОТДАТЬ 20B ХОДОВ 5",
	// Home placement (option home_placement=player).
	"Place your home planet %s: %s and %s (TILE FOREST AT cell; interior cells while any is free) and your starting cannon (BUILD CANNON AT a border cell). What you leave out, or AUTO, the dice place.": "Разместите свою родную планету %s: %s и %s (РЕСУРС ЛЕС В клетка; на внутренних клетках, пока есть свободные) и стартовую пушку (СТРОИТЬ ПУШКА В клетка края). Что вы не разместите, или АВТО, разместят кубики.",
	"only your starting cannon is built now: BUILD CANNON AT a border cell":              "сейчас строится только стартовая пушка: СТРОИТЬ ПУШКА В клетка края",
	"%s is not on your home planet %s":                                                   "%s не на вашей родной планете %s",
	"%s is taken already":                                                                "%s уже занята",
	"you have one starting cannon":                                                       "стартовая пушка у вас одна",
	"no %s is left to place on %s":                                                       "на %[2]s не осталось неразмещённых: %[1]s",
	"tiles go on interior cells while any is free (%s is on the border)":                 "ресурсы ставятся на внутренние клетки, пока есть свободные (%s на краю)",
	"now only TILE, BUILD CANNON and AUTO: place your home planet first":                 "сейчас только РЕСУРС, СТРОИТЬ ПУШКА и АВТО: сначала разместите родную планету",
	"%s places the tiles and the starting cannon of %s.":                                 "%s размещает ресурсы и стартовую пушку на %s.",
	"The dice place the tiles and the starting cannon of %s (%s).":                       "Кубики размещают ресурсы и стартовую пушку на %s (%s).",
	"%s places %d of the tiles and the cannon of %s; the dice place the other %d.":       "%s размещает %d из ресурсов и пушки на %s; остальные %d размещают кубики.",
	"Setup: every player places the tiles and the starting cannon of their home planet.": "Подготовка: каждый игрок размещает ресурсы и стартовую пушку на своей родной планете.",
	"TILE, ASTEROID and AUTO are only for the setup steps at the start of the game":      "РЕСУРС, АСТЕРОИД и АВТО только для подготовки в начале игры",
	// Asteroid placement (option asteroid_placement=player).
	"Choose the cell of asteroid %d of %d in section %d (its section rolled by %s): ASTEROID cell, at least one free cell away from planets and asteroids. AUTO lets a die choose.": "Выберите клетку астероида %d из %d в секторе %d (сектор бросал %s): АСТЕРОИД клетка, не ближе чем через одну свободную клетку от планет и астероидов. АВТО — выберет кубик.",
	"%s places asteroid %d at %s.":                              "%s помещает астероид %d в %s.",
	"A die places asteroid %d at %s for %s.":                    "Кубик помещает астероид %d в %s за %s.",
	"Asteroid %d is dropped: no section had room for it.":       "Астероид %d не размещён: ни в одном секторе не нашлось места.",
	"%s is not in section %d":                                   "%s не в секторе %d",
	"%s is too close to a planet or an asteroid":                "%s слишком близко к планете или астероиду",
	"send one line: ASTEROID cell, or AUTO":                     "пришлите одну строку: АСТЕРОИД клетка или АВТО",
	"now only ASTEROID and AUTO: asteroid %d is being placed":   "сейчас только АСТЕРОИД и АВТО: размещается астероид %d",
	"Setup: %s chooses the cell of asteroid %d.":                "Подготовка: %s выбирает клетку астероида %d.",
	"a tile: FOREST or MOUNTAIN, and a cell: TILE FOREST AT K6": "ресурс: ЛЕС или ГОРА, и клетка: РЕСУРС ЛЕС В K6",
	// Observers.
	"only a player gives orders here":   "приказы здесь отдают только игроки",
	"send orders as one of the players": "отправьте приказы от имени одного из игроков",
	// Turn flow.
	"Turn %d: %s rolls the catastrophe die: %d (%s).":             "Ход %d: %s бросает кубик катастроф: %d (%s).",
	"Turn %d: %s rolls the catastrophe die: %d, nothing happens.": "Ход %d: %s бросает кубик катастроф: %d, ничего не случилось.",
	"%s collects %s.":                                                 "%s получает %s.",
	"%s builds %s at %s (%s).":                                        "%s строит: %s в %s (%s).",
	"%s demolishes the %s at %s (%s).":                                "%s сносит: %s в %s (%s).",
	"%s builds %s %d at %s.":                                          "%s строит корабль %s %d в %s.",
	"%s buys %s at %s and loads it on cargo ship %d.":                 "%s покупает: %s на %s и грузит на грузовой корабль %d.",
	"Ship %d (%s) moves to %s.":                                       "Корабль %d (%s) летит в %s.",
	"%s attacks %s: %d against %d, shield %d: destroyed.":             "%s атакует %s: %d против %d, щит %d: уничтожено.",
	"%s attacks %s: %d against %d, shield %d: no effect.":             "%s атакует %s: %d против %d, щит %d: без результата.",
	"%s takes the wreck of cargo ship %d: %s.":                        "%s забирает груз корабля %d: %s.",
	"Cargo ship %d carried %s.":                                       "Грузовой корабль %d вёз: %s.",
	"Ship %d (%s) razes the %s at %s.":                                "Корабль %d (%s) разрушает: %s в %s.",
	"%s conquers %s and sets a monolith at %s.":                       "%s захватывает %s и ставит монолит в %s.",
	"Ship %d loads %s at %s.":                                         "Корабль %d загружает %s на %s.",
	"Ship %d delivers %s to %s at %s.":                                "Корабль %d доставляет %s игроку %s на %s.",
	"Cargo ship %d (%s) deploys %s at %s.":                            "Грузовой корабль %d (%s) устанавливает: %s в %s.",
	"%s bombards %s from six vertices: every structure is destroyed.": "%s бомбардирует %s с шести вершин: все сооружения уничтожены.",
	"%s's order %q was not carried out: %s":                           "Приказ %[1]s %[2]q не выполнен: %[3]s",
	"%s is eliminated.":                                               "%s выбывает из игры.",
	"%s now writes in %s.":                                            "%s теперь пишет по-%s.",
	"%s declares an alliance with %s.":                                "%s объявляет союз с %s.",
	"%s breaks the alliance with %s.":                                 "%s разрывает союз с %s.",
	"%s won: every enemy is destroyed.":                               "%s победил: все враги уничтожены.",
	"%s share the victory as allies.":                                 "%s делят победу как союзники.",
	"The turn limit is reached; most planets: %s.":                    "Достигнут предел ходов; больше всего планет: %s.",
	"It is your turn %d. Catastrophe: %s. Send your building, ship building and actions.":                                     "Ваш ход %d. Катастрофа: %s. Пришлите постройки, корабли и действия.",
	"Any time during the setup: LANG, ALLY, BREAK. The other orders wait for turn 1.":                                         "В любое время подготовки: ЯЗЫК, СОЮЗ, РАЗРЫВ. Остальные приказы ждут хода 1.",
	"during the setup only LANG, ALLY and BREAK: send the other orders when turn 1 opens":                                     "во время подготовки только ЯЗЫК, СОЮЗ и РАЗРЫВ: остальные приказы пришлите, когда начнётся ход 1",
	"Any time: LANG, ALLY, BREAK, OFFER, ACCEPT, CANCEL, RESIGN; or your next turn's orders in advance (CLEAR forgets them).": "В любое время: ЯЗЫК, СОЮЗ, РАЗРЫВ, ПРЕДЛОЖИТЬ, ПРИНЯТЬ, ОТМЕНИТЬ, СДАТЬСЯ; или приказы следующего хода заранее (ОЧИСТИТЬ их отменяет).",
	// Errors.
	"not an order: %q": "это не приказ: %q",
	"write one of: %s": "напишите одно из: %s",
	"%s needs %s":      "%s: нужно %s",
	"%q is not a cell": "%q не клетка",
	"cells are named by column letters and row number, like K6": "клетки называются буквами столбца и номером ряда, например K6",
	"%s is off the board":                         "%s за пределами поля",
	"no planet named %q":                          "нет планеты %q",
	"did you mean %q?":                            "может быть, %q?",
	"planets: %s":                                 "планеты: %s",
	"no player named %q":                          "нет игрока %q",
	"players: %s":                                 "игроки: %s",
	"%s is not on a planet of yours":              "%s не на вашей планете",
	"the centre cell %s is for the monolith only": "центральная клетка %s только для монолита",
	"%s is taken by %s":                           "%s занята: %s",
	"defences stand only on the outer border of a planet":                              "оборонительные сооружения строятся только на внешней границе планеты",
	"%s cannot be built on %s planet":                                                  "%s нельзя построить на планете %s",
	"%s cannot be built during %s":                                                     "%s нельзя строить во время события: %s",
	"you already build on %s this turn (one structure per planet per turn)":            "на %s уже идёт стройка в этот ход (одно сооружение на планету за ход)",
	"you cannot pay %s: you have %s after the earlier lines":                           "вам не хватает на %s: после предыдущих строк у вас %s",
	"nothing to demolish at %s":                                                        "в %s нечего сносить",
	"you already demolish %s on %s this turn":                                          "на %s уже сносится %s в этот ход",
	"that is not something a player builds":                                            "такое игрок не строит",
	"%s has no spaceport of yours":                                                     "на %s нет вашего космодрома",
	"no ship %d of yours":                                                              "у вас нет корабля %d",
	"ship %d is not a cargo ship":                                                      "корабль %d не грузовой",
	"cargo ship %d already carries %s":                                                 "грузовой корабль %d уже везёт: %s",
	"ship %d does not touch %s":                                                        "корабль %d не касается %s",
	"no spaceport or orbital station of yours at %s":                                   "в %s нет вашего космодрома или орбитальной станции",
	"your ships cannot act during %s":                                                  "во время события (%s) ваши корабли не действуют",
	"ship %d has no actions left (%d a turn)":                                          "у корабля %d не осталось действий (%d за ход)",
	"a huge ship either moves once or makes up to four other actions (N9 reading a)":   "огромный корабль либо летит один раз, либо делает до четырёх других действий (N9, прочтение a)",
	"a huge ship moves at most once a turn (N9 reading b)":                             "огромный корабль летит не больше одного раза за ход (N9, прочтение b)",
	"ship %d's actions must follow each other: put this line right after line %d":      "действия корабля %d должны идти подряд: поставьте эту строку сразу после строки %d",
	"cargo ships do not attack":                                                        "грузовые корабли не атакуют",
	"only cargo ships load, unload and deploy":                                         "грузить, выгружать и устанавливать могут только грузовые корабли",
	"no way to %s within %s through free space":                                        "нет пути в %s за %s через свободный космос",
	"nothing to attack at %s":                                                          "в %s нечего атаковать",
	"%s is not next to %s":                                                             "%s не рядом с %s",
	"you cannot attack your own %s":                                                    "нельзя атаковать своё: %s",
	"%s has no die: raze it with RAZE":                                                 "у сооружения %s нет кубика: разрушьте его приказом RAZE",
	"no ordinary structure at %s to raze":                                              "в %s нет обычного сооружения для разрушения",
	"%s still has defences: destroy them first":                                        "на %s ещё есть оборона: сначала уничтожьте её",
	"%s is already yours":                                                              "%s уже ваша",
	"%s still has structures: destroy them first":                                      "на %s ещё есть сооружения: сначала уничтожьте их",
	"%s is not yours":                                                                  "%s не ваша",
	"%s has no owner to deliver to":                                                    "у %s нет владельца",
	"you have only %s":                                                                 "у вас есть только %s",
	"cargo ship %d carries only %s":                                                    "грузовой корабль %d везёт только %s",
	"cargo ship %d carries no structure":                                               "грузовой корабль %d не везёт сооружения",
	"%s goes on a free asteroid next to the ship":                                      "%s ставится на свободный астероид рядом с кораблём",
	"a station goes on a free space cell next to the ship":                             "станция ставится на свободную клетку космоса рядом с кораблём",
	"no structure of yours that fires at %s":                                           "в %s нет вашего стреляющего сооружения",
	"the %s at %s has fired %s already":                                                "%s в %s уже стреляла %s",
	"a bombardment needs six huge ships of yours on %s, none of which acted this turn": "для бомбардировки нужны шесть ваших огромных кораблей на %s, не действовавших в этот ход",
	"alliances need more than two players":                                             "союзы возможны только при игре более чем двух игроков",
	"that is you":                                                                      "это вы",
	"languages: EN or RU":                                                              "языки: EN или RU",
	"ship %d acts already in the bombardment":                                          "корабль %d уже участвует в бомбардировке",
	"give an amount like 10B 5C":                                                       "укажите количество, например 10B 5C",
	"%s is eliminated":                                                                 "%s выбыл",
	"write a ship number or a cell: ATTACK 15, ATTACK K6":                              "укажите номер корабля или клетку: ATTACK 15, ATTACK K6",
	"%s offers %s contract %d: %s gives %s, %s gives %s, carried by cargo ship %d.":    "%s предлагает %s договор %d: %s отдаёт %s, %s отдаёт %s, перевозит грузовой корабль %d.",
	"%s accepts contract %d.":                                                          "%s принимает договор %d.",
	"%s says aloud: received %s from cargo ship %d under contract %d.":                 "%s объявляет: получено %s с грузового корабля %d по договору %d.",
	"Contract %d (%s gives %s, %s gives %s) lost its cargo ship %d.":                   "Договор %d (%s отдаёт %s, %s отдаёт %s) потерял грузовой корабль %d.",
	"no contract %d offered to you":                                                    "вам не предлагали договор %d",
	"ship %d is not a cargo ship of yours or %s's":                                     "корабль %d не грузовой корабль ваш или игрока %s",
	"%s gives only %s more under contract %d":                                          "%s отдаёт по договору %[3]d ещё только %[2]s",
	"no accepted contract lets ship %d load at %s":                                     "нет принятого договора, позволяющего кораблю %d грузиться на %s",
	"%s cannot pay %s":                                                                 "%s не может заплатить %s",
	"Contract %d with %s: you give %s, they give %s, cargo ship %d; %s.":               "Договор %d с %s: вы отдаёте %s, они отдают %s, грузовой корабль %d; %s.",
	"accepted":       "принят",
	"offered":        "предложен",
	"Contracts":      "Договоры",
	"%s (%s) at %s":  "%s (%s) в %s",
	"asteroid at %s": "астероид в %s",
	"%s + %s":        "%s + %s",
	"%s %d (%s)":     "%s %d (%s)",
	"%s attacks %s":  "%s атакует %s",
	"%s defends":     "%s защищается",
	// The board and status (render.go).
	legend: ". космос  : планета  @ монолит  t лес  ^ гора  F домна  G теплица  P космодром  C пушка  " +
		"T башня  * астероид  S орбитальная станция  R буровая установка  H местообитание  корабли: " +
		"s маленький  m средний  l большой  x огромный  k грузовой; цифра после символа — номер места владельца.",
	"Seats: %s.": "Места: %s.",
	"Turn %d. It is %s's turn; catastrophe: %s.": "Ход %d. Ходит %s; катастрофа: %s.",
	"The game is over: %s":                       "Игра окончена: %s",
	"Players":                                    "Игроки",
	"%d. %s: %s, language %s, planets %d, ships %d, bank %s, allies: %s.": "%d. %s: %s, язык %s, планет %d, кораблей %d, запас %s, союзники: %s.",
	"%d. %s: eliminated.": "%d. %s: выбыл.",
	"Planets":             "Планеты",
	"%s: centre %s (section %d), %s %s, owner %s; tiles: %s; structures: %s; dice: %s.": "%s: центр %s (участок %d), %s %s, владелец %s; ресурсы: %s; сооружения: %s; кубики: %s.",
	"Ships":                             "Корабли",
	"%s %d (%s, %s) at %s.":             "%s %d (%s, %s) в %s.",
	"%s %d (%s, %s) at %s, carries %s.": "%s %d (%s, %s) в %s, везёт %s.",
	"Space structures":                  "Космические сооружения",
	"%s (%s) at %s.":                    "%s (%s) в %s.",
	"Asteroids (shield 18): %s.":        "Астероиды (щит 18): %s.",
	"Setup dice":                        "Кубики подготовки",
	"hidden":                            "скрыт",
	"nothing":                           "ничего",
	"none":                              "нет",
	"Contract %d: %s gives %s, %s gives %s, cargo ship %d; %s.": "Договор %d: %s отдаёт %s, %s отдаёт %s, грузовой корабль %d; %s.",
	"no asteroid at %s":                                        "в %s нет астероида",
	"you have no contract %d":                                  "у вас нет договора %d",
	"%s cancels contract %d.":                                  "%s отменяет договор %d.",
	"at most %d of a resource in one order":                    "не больше %d одного ресурса в одном приказе",
	"%s's advance orders are kept for their next turn (%s).":   "Предварительные приказы %s сохранены до следующего хода (%s).",
	"%s's advance orders run.":                                 "Выполняются предварительные приказы %s.",
	"%s's advance orders are cleared.":                         "Предварительные приказы %s отменены.",
	"it is your turn: send these orders as your turn's orders": "сейчас ваш ход: пришлите эти приказы как приказы хода",
	"Your advance orders: %s":                                  "Ваши предварительные приказы: %s",
	"%s resigns.":                                              "%s сдаётся.",
	"no space structure of yours at %s":                        "в %s нет вашего космического сооружения",
	"Cargo ship %d (%s) picks up the %s at %s.":                "Грузовой корабль %d (%s) забирает: %s в %s.",
	"%s": "%s",
}

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
