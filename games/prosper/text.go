package prosper

import (
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// Translate puts one of Prosper's own English texts into l
// (engine.Translator): the rules as Info gives them (summary, order
// help, every option's help), which are not messages, and — the legacy
// path — a text recorded in English before Prosper's texts were
// messages (legacyRU). A text recorded as a message never comes here:
// the mail side writes it from the catalog.
func (ruleset) Translate(l, text string) (string, bool) {
	if l != langRU || text == "" {
		return text, false
	}
	if r, ok := rulesRU[text]; ok {
		return r, true
	}
	return legacyRU(text)
}

// Translate is the ruleset's Translate. With Localize it makes the view
// an engine.Localizer, which is what the mail side looks for to draw a
// picture in the reader's language.
func (v *view) Translate(l, text string) (string, bool) { return ruleset{}.Translate(l, text) }

var (
	_ engine.Localizer = ruleset{}
	_ engine.Localizer = (*view)(nil)
)

// rulesRU is the Russian of the rules as Info gives them, for a Russian
// reader's HELP, RULES and welcome.
var rulesRU = map[string]string{
	summary:   summaryRU,
	orderHelp: orderHelpRU,
	"default: Hex-19 for 2–3 players, Hex-37 for 4–6; generated: a new map grown from the game's dice, 5 planets a player + 7; or name one":      "default: Hex-19 для 2–3 игроков, Hex-37 для 4–6; generated: новая карта, выращенная кубиками игры, 5 планет на игрока + 7; или имя карты",
	"least ships to settle a planet: natives/2+1, or the literal natives+1":                                                                      "наименьшее число кораблей для заселения: туземцы/2+1 (half) или, буквально, туземцы+1 (literal)",
	"ships lost to natives while settling: gone for good, or a reserve placed when the main phase begins":                                        "корабли, потерянные при заселении: пропадают навсегда (gone) или становятся резервом, который выставляется в начале основной фазы (reserve)",
	"a failed attack on a player: the defence point absorbs the first attacker, defender keeps ships+1-attackers; strict: keeps ships-attackers": "неудачная атака на игрока: очко обороны поглощает первого нападающего, у защитника остаётся корабли+1−нападающие (absorb); strict: корабли−нападающие",
	"end after this many rounds (0: play to the end); most planets wins, ties by ships":                                                          "конец после стольких раундов (0: играть до конца); побеждает больше планет, при равенстве — больше кораблей",
	"ships each player settles at the start": "корабли, которые каждый игрок заселяет в начале",
}

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

// ---- legacy: texts recorded in English, before messages ----------------

// legacyCatalog is the catalog without its glue entries, for legacyRU:
// a game recorded before Prosper's texts were messages has its events,
// prompts, phase, dice and end in English only, and this is how they
// are still put into Russian. The English of every message is the text
// such a game recorded, so the message ids are the formats to match.
var legacyCatalog = func() *lang.Catalog {
	var keep []string
	for _, e := range strings.Split(ruPO, "\n\n") {
		if !glue(e) {
			keep = append(keep, e)
		}
	}
	c := lang.NewCatalog()
	if err := c.AddPO(lang.Russian, strings.Join(keep, "\n\n")); err != nil {
		panic("games/prosper: " + err.Error())
	}
	// A shuffle's die, worded by the engine (dice.Shuffle): a message
	// now, its Russian in the templates' catalog.
	c.Add(lang.Russian, "%s (position %d of %d)", "%s (место %d из %d)")
	c.Freeze()
	return c
}()

// legacyRU translates a text recorded in English (LEGACY: for games
// recorded before messages; nothing recorded now comes here). It finds
// the format the text was made from (lang.Catalog.TranslateArgs) and
// writes its Russian with the same arguments, themselves translated. A
// text of several sentences (a settling with its plan noted, an attack
// and the ships a full planet loses) is translated sentence by sentence.
func legacyRU(text string) (string, bool) {
	if legacyCatalog.Has(lang.Russian, text) && !strings.Contains(text, "%") {
		return legacyCatalog.Sprintf(lang.Russian, text), true
	}
	if parts := sentences(text); len(parts) > 1 {
		for i, p := range parts {
			out, ok := legacyRU(p)
			if !ok {
				return text, false
			}
			parts[i] = out
		}
		return strings.Join(parts, " "), true
	}
	return legacyCatalog.TranslateArgs(lang.Russian, text, legacyArg)
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

// legacyArg translates an argument of a recorded sentence (LEGACY): itself
// a sentence or a count, a word, or a list ("a; b", "ann and bob",
// "'Rigel' or 'Regulus'"); anything else (a name, an order) stays as it is.
func legacyArg(a string) string {
	if legacyCatalog.Has(lang.Russian, a) && !strings.Contains(a, "%") {
		return legacyCatalog.Sprintf(lang.Russian, a)
	}
	if parts := strings.Split(a, "; "); len(parts) > 1 {
		// Reasons joined: each is matched alone, so that no pattern
		// reaches over the join.
		for i, p := range parts {
			parts[i] = legacyArg(p)
		}
		return strings.Join(parts, "; ")
	}
	if out, ok := legacyCatalog.TranslateArgs(lang.Russian, a, legacyArg); ok {
		return out
	}
	for _, sep := range []struct{ en, ru string }{{" and ", " и "}, {" or ", " или "}, {", ", ", "}} {
		if parts := strings.Split(a, sep.en); len(parts) > 1 {
			changed := false
			for i, p := range parts {
				out := legacyArg(p)
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
