package prosper

import (
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// Prosper writes every text of its own in English where it is recorded
// (events, prompts, order errors, the end, dice purposes), whatever its
// players read: the state, the log and a replay are the same in every
// language, and no order changes a language. A Russian reader gets them
// in Russian when a mail is written (engine.Localizer): Translate finds
// the English format a text was made from and writes its Russian form
// with the same arguments, themselves translated (counts with their
// plural, sizes, lists of names), and Localize gives a view whose board
// and status are drawn in Russian. Order words stay English: the orders
// a player types are the same in both languages, and the Russian help
// says so. TestEveryTextHasRussian finds every format of the code and
// checks it is here; TestTranslateEverythingRecorded plays bot games and
// translates all they record.

const langRU = "ru"

// ru is the Russian of every format, by its English form. Counts are
// always in the nominative ("5 кораблей" after a colon, in brackets), so
// a count translated on its own fits every sentence.
var ru = map[string]string{
	// Phases (State.Phase), in the mail's heading.
	phaseSettle: "колонизация",
	phaseMove:   "перемещение",
	phaseOver:   "игра окончена",
	// Dice purposes (prosper.go, board.go).
	"seat order": "порядок мест",
	"map: planet %d of %d, among %s next to the map": "карта: планета %d из %d, среди клеток рядом с картой (%s)",
	"map: sizes of the planets":                      "карта: размеры планет",
	"%s (position %d of %d)":                         "%s (место %d из %d)", // a shuffle's die (engine/dice)
	// Prompts.
	"Settle a planet: you have %s left to place (SETTLE <planet> <ships>; more lines make a plan for your later picks).": "Заселите планету: осталось разместить %s (SETTLE <планета> <корабли>; следующие строки — план на ваши будущие выборы).",
	planAsk: "Новый план заселения на ваши будущие выборы: строки SETTLE заменяют весь план; PLAN NONE очищает его.",
	"Round %d: your movement, up to 3 MOVE <ships> FROM <planet> TO <planet> (or DONE).": "Раунд %d: ваше перемещение, до 3 приказов MOVE <корабли> FROM <планета> TO <планета> (или DONE).",
	// Settling (state.go).
	"settle at least 1 ship":                                                      "заселяйте хотя бы 1 кораблём",
	"you have only %s left to place":                                              "вам осталось разместить только %s",
	"%s is settled by %s already, and settling cannot attack":                     "%s уже заселена игроком %s, а заселение не может быть атакой",
	"%s planet needs at least %s (natives take %d and one must stay)":             "%s планета требует не меньше: %s (туземцы забирают %d, и один корабль должен остаться)",
	"%s holds at most %s: %d would be there":                                      "%s вмещает не больше %s, а было бы %d", // limits 15, 30, 60: "кораблей" either way
	"%s settles %s (%s) with %s: the natives take %d, %d %s.":                     "%[1]s заселяет %[2]s (%[3]s), прислано: %[4]s; туземцы забирают %[5]d, на планете: %[6]d.",
	"The %d lost return at the main phase.":                                       "Потерянные (%d) вернутся в начале основной фазы.",
	"(from %s's plan)":                                                            "(по плану игрока %s)",
	"%s adds %s to %s: %d there.":                                                 "%s добавляет %s на %s: теперь там %d.",
	"%s cannot place the %s left anywhere: they are lost.":                        "%s не может никуда разместить оставшиеся корабли (%s): они потеряны.",
	"Your settling plan's line %s can no longer be played, so it is dropped: %s.": "Строку вашего плана заселения %s больше нельзя сыграть, и она снята: %s.",
	planEmpty: "Ваш план теперь пуст: ваш следующий выбор ждёт вашего письма.",
	"%s's reserve of %s returns: %d placed on their largest planets, %d lost for lack of room.": "Резерв игрока %s (%s) возвращается: %d размещено на его самых больших планетах, %d потеряно — нет места.",
	"Colonisation is over.":                                              "Колонизация окончена.",
	"Round %d begins with %s.":                                           "Раунд %d начинает %s.",
	"%s has no planet left and is out of the game.":                      "У игрока %s не осталось планет, и он выбывает из игры.",
	"%s has eradicated every enemy and wins.":                            "%s уничтожил всех врагов и побеждает.",
	"Nobody is left.":                                                    "Никого не осталось.",
	"Game over: %s":                                                      "Игра окончена: %s",
	"Game over: %s.":                                                     "Игра окончена: %s.",
	"Production of round %d: %s.":                                        "Производство раунда %d: %s.",
	"the turn limit of %s is reached: %s %s with %s and %s":              "достигнут предел в %[1]s: %[3]s %[2]s — %[4]s и %[5]s",
	"%s places nothing; the %s left are lost.":                           "%s ничего не размещает; оставшиеся корабли (%s) потеряны.",
	"%s makes no movement.":                                              "%s не делает перемещений.",
	"Your settling plan is now: %s.":                                     "Ваш план заселения теперь: %s.",
	"Your settling plan is cleared: your next pick waits for your mail.": "Ваш план заселения очищен: ваш следующий выбор ждёт вашего письма.",
	"Your settling plan is unchanged: %s.":                               "Ваш план заселения не изменился: %s.",
	"You have no settling plan: your next pick waits for your mail.":     "У вас нет плана заселения: ваш следующий выбор ждёт вашего письма.",
	// Movement (move.go).
	"%s is not yours (it is held by %s)":                                            "%s не ваша (владелец: %s)",
	"move from one of your own planets":                                             "перемещайте корабли со своей планеты",
	"a movement needs a destination other than %s":                                  "перемещению нужна цель, отличная от %s",
	"name two different planets":                                                    "назовите две разные планеты",
	"a movement moves at least one ship":                                            "перемещение переносит хотя бы один корабль",
	"move 1 ship or more":                                                           "перемещайте 1 корабль или больше",
	"move at most %d":                                                               "перемещайте не больше %d",
	"%s has %s at this point of your orders, not %d":                                "на %s в этот момент ваших приказов: %s, а не %d",
	"no chain of your own planets joins %s to %s":                                   "никакая цепочка ваших планет не соединяет %s с %s",
	"attack the planets between first, or move in steps":                            "сначала атакуйте планеты между ними или перемещайтесь по шагам",
	"%s holds at most %s and has %d":                                                "%s вмещает не больше %s, а там уже %d",
	"%s moves %s from %s to %s.":                                                    "%s перемещает %s с %s на %s.",
	"%s is not next to %s: an attack must go to a neighbouring planet":              "%s не соседствует с %s: атаковать можно только соседнюю планету",
	"attack from a planet next to it":                                               "атакуйте с соседней планеты",
	"%s leaves %s empty: its natives take it back.":                                 "%s оставляет %s пустой: её снова занимают туземцы.",
	"%s attacks %s (%s) from %s with %s: %s and the natives hold.":                  "%s атакует %s (%s) с %s, в атаке: %s; %s, туземцы держатся.",
	"%s attacks %s (%s) from %s with %s and takes it with %d left.":                 "%s атакует %s (%s) с %s, в атаке: %s, и захватывает её, осталось %d.",
	"%s attacks %s (%s: %s + 1 defence) from %s with %s and takes it with %d left.": "%s атакует %s (%s: %s + 1 оборона) с %s, в атаке: %s, и захватывает её, осталось %d.",
	"%s attacks %s (%s: %s + 1 defence) from %s with %s: both sides are wiped out and the natives regain the planet.":              "%s атакует %s (%s: %s + 1 оборона) с %s, в атаке: %s; обе стороны уничтожены, и планету снова занимают туземцы.",
	"%s attacks %s (%s: %s + 1 defence) from %s with %s: the attack fails, no defender is left and the natives regain the planet.": "%s атакует %s (%s: %s + 1 оборона) с %s, в атаке: %s; атака отбита, но защитников не осталось, и планету снова занимают туземцы.",
	"%s attacks %s (%s: %s + 1 defence) from %s with %s: the attack fails and %s keeps %s.":                                        "%s атакует %s (%s: %s + 1 оборона) с %s, в атаке: %s; атака отбита, у игрока %s остаётся: %s.",
	"%s holds at most %d: %s.": "%s вмещает не больше %d: %s.",
	// Orders (orders.go, render.go).
	"empty order":                  "пустой приказ",
	"%s takes nothing after it":    "после %s ничего не пишут",
	"write DONE alone on its line": "напишите DONE отдельной строкой",
	"PLAN takes only NONE: PLAN NONE clears your settling plan":                          "после PLAN пишут только NONE: PLAN NONE очищает ваш план заселения",
	"write PLAN NONE alone, or SETTLE lines for a new plan":                              "напишите PLAN NONE отдельно или строки SETTLE нового плана",
	"SETTLE needs a planet and a number of ships":                                        "SETTLE требует планету и число кораблей",
	"write e.g. SETTLE Vega 3":                                                           "напишите, например, SETTLE Vega 3",
	"%q is not a number of ships":                                                        "%q — не число кораблей",
	"unexpected %q after %s %d":                                                          "лишнее %q после %s %d",
	"separate alternatives with ELSE: SETTLE Vega 3 ELSE Sol 7":                          "разделяйте варианты словом ELSE: SETTLE Vega 3 ELSE Sol 7",
	"MOVE needs a number of ships and two planets":                                       "MOVE требует число кораблей и две планеты",
	"write e.g. MOVE 5 FROM Sol TO Vega":                                                 "напишите, например, MOVE 5 FROM Sol TO Vega",
	"%q is not an order":                                                                 "%q — не приказ",
	"did you mean %s?":                                                                   "может быть, %s?",
	"orders are SETTLE, PLAN NONE, MOVE and DONE (see HELP)":                             "приказы: SETTLE, PLAN NONE, MOVE и DONE (см. HELP)",
	"write more of the name":                                                             "напишите имя подлиннее",
	"%q could be %s":                                                                     "%q может означать %s",
	"the planets are listed in your report":                                              "планеты перечислены в вашем отчёте",
	"no planet named '%s'":                                                               "нет планеты '%s'",
	"your first line is this pick: it must be a SETTLE order":                            "ваша первая строка — этот выбор: это должен быть приказ SETTLE",
	"write the pick first, e.g. SETTLE Vega 3; a pick sent alone clears your plan":       "сначала напишите выбор, например SETTLE Vega 3; выбор, присланный один, очищает ваш план",
	"while settling, only SETTLE orders are taken":                                       "во время заселения принимаются только приказы SETTLE",
	"movement starts after colonisation":                                                 "перемещения начнутся после колонизации",
	"%s %d: %v":                                                                          "%s %d: %v",
	"this pick is not possible now: %s":                                                  "этот выбор сейчас невозможен: %s",
	"your first SETTLE line is this pick; settle a free planet or one of yours":          "ваша первая строка SETTLE — этот выбор; заселяйте свободную планету или свою",
	"it is your pick and no SETTLE order came":                                           "сейчас ваш выбор, а приказа SETTLE нет",
	"an order after DONE":                                                                "приказ после DONE",
	"put DONE last, or leave it out":                                                     "поставьте DONE последним или уберите его",
	"colonisation is over: only MOVE and DONE are taken now":                             "колонизация окончена: теперь принимаются только MOVE и DONE",
	"a player makes at most 3 movements a round":                                         "игрок делает не больше 3 перемещений за раунд",
	"drop a MOVE, or combine two from the same planet to the same planet":                "уберите один MOVE или объедините два с одной планеты на одну и ту же",
	"the game is over: no orders are taken":                                              "игра окончена: приказы не принимаются",
	"PLAN NONE clears the plan, so it cannot stand with other plan lines":                "PLAN NONE очищает план, поэтому не может стоять вместе с другими строками плана",
	"send PLAN NONE alone, or only the SETTLE lines of the new plan":                     "пришлите PLAN NONE отдельно или только строки SETTLE нового плана",
	"while settling, only SETTLE orders are taken (and PLAN NONE)":                       "во время заселения принимаются только приказы SETTLE (и PLAN NONE)",
	"orders can only be checked for the player they are asked of":                        "приказы проверяются только для игрока, у которого их спрашивают",
	"no plan is asked of you now: a plan is sent while others pick, during colonisation": "сейчас у вас не спрашивают план: план присылают, пока выбирают другие, во время колонизации",
	"send your pick to the pick's prompt; its later SETTLE lines are your plan":          "пришлите свой выбор на вопрос о выборе; его следующие строки SETTLE — ваш план",
	// The board and the status (render.go), drawn in the reader's language.
	"Each planet: name, then size (S M L) and its owner's letter and ships (B25),": "Каждая планета: имя, затем размер (S M L — малая, средняя, большая) и буква",
	"or its natives (n12), or - for a small planet that no one holds.":             "владельца с кораблями (B25), или туземцы (n12), или - у ничьей малой планеты.",
	"Owners: %s.": "Владельцы: %s.",
	"(you)":       "(вы)",
	"(out)":       "(выбыл)",
	"Links: - / \\ join neighbouring planets.":        "Связи: - / \\ соединяют соседние планеты.",
	"Colonisation, pick %d: %s to settle.":            "Колонизация, выбор %d: заселяет %s.",
	"Round %d, movement: %s to move (started by %s).": "Раунд %d, перемещение: ходит %s (раунд начал %s).",
	"Your settling plan: ":                            "Ваш план заселения: ",
	// The picture (draw.go), drawn in the reader's language from a
	// localized view.
	"Prosper or Perish: no map yet.": "Prosper or Perish: карты ещё нет.",
	"No map yet.":                    "Карты ещё нет.",
	"n4, n12: natives":               "n4, n12: туземцы",
	"small, no one's":                "малая, ничья",
	"B25: B's 25 ships.  S M L: size (production 2 5 8, limit 15 30 60).": "B25: 25 кораблей игрока B.  S M L: размер (прирост 2 5 8, лимит 15 30 60).",
	"a thick ring: your planets":                                          "толстое кольцо: ваши планеты",
	"Prosper or Perish · colonisation, pick %d: %s":                       "Prosper or Perish · колонизация, выбор %d: %s",
	"Prosper or Perish · round %d: %s to move":                            "Prosper or Perish · раунд %d: ходит %s",
	"Prosper or Perish · game over":                                       "Prosper or Perish · игра окончена",
	"%s. Map of %d planets; planets held: %s.":                            "%s. Планет на карте: %d; планеты у игроков: %s.",
	// The options' help (Info.Options), for RULES.
	"default: Hex-19 for 2–3 players, Hex-37 for 4–6; generated: a new map grown from the game's dice, 5 planets a player + 7; or name one":      "default: Hex-19 для 2–3 игроков, Hex-37 для 4–6; generated: новая карта, выращенная кубиками игры, 5 планет на игрока + 7; или имя карты",
	"least ships to settle a planet: natives/2+1, or the literal natives+1":                                                                      "наименьшее число кораблей для заселения: туземцы/2+1 (half) или, буквально, туземцы+1 (literal)",
	"ships lost to natives while settling: gone for good, or a reserve placed when the main phase begins":                                        "корабли, потерянные при заселении: пропадают навсегда (gone) или становятся резервом, который выставляется в начале основной фазы (reserve)",
	"a failed attack on a player: the defence point absorbs the first attacker, defender keeps ships+1-attackers; strict: keeps ships-attackers": "неудачная атака на игрока: очко обороны поглощает первого нападающего, у защитника остаётся корабли+1−нападающие (absorb); strict: корабли−нападающие",
	"end after this many rounds (0: play to the end); most planets wins, ties by ships":                                                          "конец после стольких раундов (0: играть до конца); побеждает больше планет, при равенстве — больше кораблей",
	"ships each player settles at the start": "корабли, которые каждый игрок заселяет в начале",
	// The rules (Info), for HELP, RULES and the welcome.
	summary:   summaryRU,
	orderHelp: orderHelpRU,
}

// terms are single words an argument may be: sizes (alone, and with the
// article an error gives them) and holders.
var terms = map[string]string{
	"small": "малая", "medium": "средняя", "large": "большая",
	"a small": "малая", "a medium": "средняя", "a large": "большая",
	"the natives": "туземцы", "natives": "туземцы",
	"remains": "остаётся", "remain": "остаются", "wins": "побеждает", "win": "побеждают",
}

// counts are the nouns written with a number (lang.N), in English (one,
// other) and in Russian (one, few, many), nominative.
var counts = []struct {
	en [2]string
	ru [3]string
}{
	{[2]string{"ship", "ships"}, [3]string{"корабль", "корабля", "кораблей"}},
	{[2]string{"native", "natives"}, [3]string{"туземец", "туземца", "туземцев"}},
	{[2]string{"round", "rounds"}, [3]string{"раунд", "раунда", "раундов"}},
	{[2]string{"planet", "planets"}, [3]string{"планета", "планеты", "планет"}},
	{[2]string{"cell", "cells"}, [3]string{"клетка", "клетки", "клеток"}},
	{[2]string{"ship is lost", "ships are lost"}, [3]string{"корабль потерян", "корабля потеряны", "кораблей потеряно"}},
	{[2]string{"it is lost", "all are lost"}, [3]string{"корабль потерян", "корабля потеряны", "кораблей потеряны"}},
}

// catalogRU holds ru and the counts, for Translate and for drawing.
var catalogRU = func() *lang.Catalog {
	c := lang.NewCatalog()
	for en, r := range ru {
		c.Add(lang.Russian, en, r)
	}
	for _, n := range counts {
		forms := []string{"%d " + n.ru[0], "%d " + n.ru[1], "%d " + n.ru[2]}
		c.Add(lang.Russian, "%d "+n.en[0], forms...)
		c.Add(lang.Russian, "%d "+n.en[1], forms...)
	}
	c.Freeze()
	return c
}()

// tr formats an English format in the language l: Russian when l is, else
// English (the format itself).
func tr(l, format string, args ...any) string {
	if l == langRU {
		return catalogRU.Sprintf(lang.Russian, format, args...)
	}
	return catalogRU.Sprintf(lang.English, format, args...)
}

// term is a single word in l.
func term(l, en string) string {
	if l == langRU {
		if r, ok := terms[en]; ok {
			return r
		}
	}
	return en
}

// Translate puts one of Prosper's recorded English texts into l
// (engine.Translator): an event, a prompt, an order error or its fix, a
// phase, a die's purpose, the end, the rules. A text of several
// sentences (a settling with its plan noted, an attack and the ships a
// full planet loses) is translated sentence by sentence.
func (ruleset) Translate(l, text string) (string, bool) {
	if l != langRU || text == "" {
		return text, false
	}
	if out, ok := translateRU(text); ok {
		return out, true
	}
	return text, false
}

func translateRU(text string) (string, bool) {
	if catalogRU.Has(lang.Russian, text) && !strings.Contains(text, "%") {
		return catalogRU.Sprintf(lang.Russian, text), true // a fixed text: the rules, a fix with "e.g. "
	}
	if parts := sentences(text); len(parts) > 1 {
		for i, p := range parts {
			out, ok := translateRU(p)
			if !ok {
				return text, false
			}
			parts[i] = out
		}
		return strings.Join(parts, " "), true
	}
	return catalogRU.TranslateArgs(lang.Russian, text, argRU)
}

// sentences splits text after each ". " ("3 remain. (from ann's plan)").
// No argument of Prosper's sentences holds one: names are single words,
// errors and orders have no full stop inside.
func sentences(text string) []string {
	var out []string
	for {
		i := strings.Index(text, ". ")
		if i < 0 {
			return append(out, text)
		}
		out = append(out, text[:i+1])
		text = text[i+2:]
	}
}

// argRU translates an argument of a sentence: itself a sentence or a
// count, a word, or a list ("a; b", "ann and bob", "'Rigel' or
// 'Regulus'"); anything else (a name, an order) stays as it is.
func argRU(a string) string {
	if catalogRU.Has(lang.Russian, a) && !strings.Contains(a, "%") {
		return catalogRU.Sprintf(lang.Russian, a)
	}
	if parts := strings.Split(a, "; "); len(parts) > 1 {
		// Reasons joined: each is matched alone, so that no pattern
		// reaches over the join.
		for i, p := range parts {
			parts[i] = argRU(p)
		}
		return strings.Join(parts, "; ")
	}
	if out, ok := catalogRU.TranslateArgs(lang.Russian, a, argRU); ok {
		return out
	}
	if r, ok := terms[a]; ok {
		return r
	}
	for _, sep := range []struct{ en, ru string }{{" and ", " и "}, {" or ", " или "}, {", ", ", "}} {
		if parts := strings.Split(a, sep.en); len(parts) > 1 {
			changed := false
			for i, p := range parts {
				out := argRU(p)
				changed = changed || out != p
				parts[i] = out
			}
			if changed || sep.en != sep.ru {
				return strings.Join(parts, sep.ru)
			}
		}
	}
	return a
}

// Localize gives v drawn in l: its board's legend and its status in the
// reader's language (engine.Localizer). The board itself (names, sizes,
// letters, ships) is the same in every language.
func (ruleset) Localize(v engine.View, l string) engine.View {
	pv, ok := v.(*view)
	if !ok {
		return v
	}
	c := *pv
	c.lang = l
	return &c
}

var _ engine.Localizer = ruleset{}

// The Russian of the rules as Info gives them (summary, orderHelp), for a
// Russian reader's HELP, RULES and welcome.
const summaryRU = "Завоюйте планеты звёздной системы. Каждый игрок по очереди, змейкой, " +
	"заселяет планеты своими 30 кораблями, теряя половину силы туземцев. Затем в каждом " +
	"раунде каждый игрок по очереди делает до трёх перемещений (любое число кораблей с одной " +
	"планеты на другую: на свою планету по цепочке своих планет или атакой на соседнюю " +
	"чужую), и каждая колонизированная планета производит корабли до своего предела. " +
	"Туземцы бьются один на один; вражеская планета защищается своими кораблями плюс один. " +
	"Побеждает последний игрок, у которого остались планеты."

const orderHelpRU = `Слова приказов пишутся по-английски, как ниже: SETTLE, ELSE, PLAN NONE,
MOVE, FROM, TO, DONE; имена планет — как на поле.

Заселение (в начале игры, по одной планете за выбор, змейкой):
  SETTLE <планета> <корабли>         заселить свободную планету (или
                                     добавить корабли на свою)
  SETTLE <планета> <корабли> ELSE <планета> <корабли> ...
                                     первый вариант, который ещё возможен
  PLAN NONE                          очистить свой план заселения
  Следующие строки SETTLE составляют план: каждый ваш следующий выбор
  берёт следующую строку, которую можно сыграть, не дожидаясь письма.
  Пока выбирают другие, письмо из строк SETTLE заменяет весь ваш план
  (строки проверяются так же, как строки плана при выборе); PLAN NONE
  очищает его, и тогда ваш следующий выбор ждёт вашего письма. Ваш план
  видите только вы.
  Заселение стоит половины туземцев (малая 0, средняя 2, большая 6); хотя
  бы один корабль должен остаться: малая 1, средняя 3, большая 7.

Перемещение (каждый раунд, по очереди, до 3 перемещений):
  MOVE <корабли> FROM <планета> TO <планета>
                                     на свою планету: по цепочке своих
                                     планет; на любую другую: атака на
                                     соседнюю с той, откуда летите
  DONE                               закончить перемещение (или пустое
                                     письмо)
  Перемещения выполняются в порядке записи, каждое на поле, которое
  оставили предыдущие.

Планеты можно называть по имени или по первым буквам имени.`

// A view words itself too (engine.Localizer), for a mail about several
// games at once (the digest), where only each game's report is at hand.

// Translate is the ruleset's Translate.
func (v *view) Translate(l, text string) (string, bool) { return ruleset{}.Translate(l, text) }

// Localize is the ruleset's Localize.
func (v *view) Localize(w engine.View, l string) engine.View { return ruleset{}.Localize(w, l) }

var _ engine.Localizer = (*view)(nil)
