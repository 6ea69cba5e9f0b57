package burning

import (
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// The mail side asks a ruleset for the texts of its own that it has only
// in English (engine.Translator): the rules summary and order help, and
// what a game recorded before messages stored in English only (the
// phase, the purpose of each die, the end of the game). They are
// translated only when a report is written for a reader; everything the
// game makes now is a message (ru.po).

// phrasesRU are the Russian of those texts that are not messages of
// this package: the rules and the purpose of a shuffle's die as a game
// recorded before messages has it.
var phrasesRU = map[string]string{
	"%s (position %d of %d)": "%s (место %d из %d)", // a shuffle's die, recorded before messages
	// The order language (Info.OrderHelp), for a Russian reader alone.
	orderHelp: orderHelpRU,
	// The rules summary (Info.Summary).
	summary: "Люди, Диджитал и Ксенос сражаются за сгенерированную галактику из шестиугольников. " +
		"В ваш ход бросается кубик катастроф, ваши планеты производят ресурсы, вы строите " +
		"(одно сооружение на планету), строите корабли и действуете: у каждого корабля два " +
		"действия (лететь на расстояние своей скорости или атаковать соседнюю цель; кубик " +
		"атаки должен превзойти кубик цели и её щит). Захватывайте пустые планеты монолитом, " +
		"лишайте вражеские планеты сооружений и забирайте их. Грузовые корабли везут ресурсы " +
		"и космические сооружения, скрытые ото всех, кроме вас. Уничтожьте всех врагов " +
		"или закончите игру союзниками.",
}

// ruCatalog holds ru.po, phrasesRU and the texts of ru that end up in
// recorded English: the attacks and defences of the dice, and every text
// of ru.po as a game recorded before messages has it (English only).
var ruCatalog = func() *lang.Catalog {
	c := lang.NewCatalog()
	if err := c.AddPO(lang.Russian, ruPO); err != nil {
		panic("games/burning: " + err.Error())
	}
	for en, r := range phrasesRU {
		c.Add(lang.Russian, en, r)
	}
	c.Freeze()
	return c
}()

// termOf finds the Russian of the term an English word stands for
// ("Cannon", "cannon").
var termOf = func() map[string]string {
	m := map[string]string{}
	for _, k := range termKeys {
		if c, ok := capTermMsg(k); ok {
			m[c.English()] = render(langRU, c)
		}
		w, _ := termMsg(k)
		m[w.English()] = render(langRU, w)
	}
	return m
}()

// Translate puts one of the game's recorded English texts into l
// (engine.Translator).
func (ruleset) Translate(l, text string) (string, bool) {
	if l != langRU {
		return text, false
	}
	var arg func(string) string
	arg = func(a string) string {
		if out, ok := ruCatalog.TranslateArgs(lang.Russian, a, arg); ok {
			return out
		}
		if t, ok := termOf[a]; ok {
			return t
		}
		return a
	}
	return ruCatalog.TranslateArgs(lang.Russian, text, arg)
}

// The in-game language and the player's LANG setting of the mail side are
// one (engine.Languages).

// LanguageOrder is the order that sets a player's language.
func (ruleset) LanguageOrder(tag string) (string, bool) {
	switch tag {
	case langEN, langRU:
		return "LANG " + strings.ToUpper(tag), true
	}
	return "", false
}

// OrderLanguage reads an accepted order line (canonical: "LANG RU").
func (ruleset) OrderLanguage(line string) (string, bool) {
	f := strings.Fields(line)
	if len(f) == 2 && f[0] == vLang {
		switch l := strings.ToLower(f[1]); l {
		case langEN, langRU:
			return l, true
		}
	}
	return "", false
}

// ViewLanguage is the language v writes in.
func (ruleset) ViewLanguage(v engine.View) string {
	if bv, ok := v.(view); ok {
		return bv.lang()
	}
	return langEN
}

var (
	_ engine.Translator = ruleset{}
	_ engine.Languages  = ruleset{}
)

// orderHelpRU is the Russian half of orderHelp: what a player who reads
// Russian is shown in their welcome, HELP and RULES mails. The English
// order words are read too.
const orderHelpRU = `Приказы по одному в строке (клетки как K6; корабли по номеру). Английские
слова приказов тоже понимаются: BUILD, SHIP, FIRE…
  СТРОИТЬ ПУШКА В K6
      домна, теплица, космодром (где угодно), пушка, башня (на краю)
  СНЕСТИ K6
  КУПИТЬ БУРОВАЯ НА Arda ДЛЯ 12
      буровая, местообитание, станция: на ваш грузовой корабль у планеты
  СОЗДАТЬ 2 МАЛЫЙ У Arda
      малый средний большой огромный грузовой (или имя корабля), у планеты
      с вашим космодромом или в клетке вашей орбитальной станции
  КОРАБЛЬ 12 ЛЕТЕТЬ K6
  КОРАБЛЬ 12 АТАКОВАТЬ 15
      номер корабля или клетка (оборона, станция, буровая, астероид)
  КОРАБЛЬ 12 АТАКОВАТЬ АСТЕРОИД K6
  КОРАБЛЬ 12 РАЗРУШИТЬ K6
      домна, теплица или космодром планеты без обороны
  КОРАБЛЬ 12 ЗАХВАТИТЬ Arda
  КОРАБЛЬ 12 ЗАГРУЗИТЬ Arda 10B 5C
  КОРАБЛЬ 12 ВЫГРУЗИТЬ Arda 10B
  КОРАБЛЬ 12 УСТАНОВИТЬ K6
  КОРАБЛЬ 12 ЗАБРАТЬ K6
  ОГОНЬ K6 В 12
      пушки, башни, станции дважды за ход; буровые, местообитания раз
  БОМБИТЬ Arda
      шестью вашими огромными кораблями на шести вершинах
В любое время:
  ЯЗЫК RU | ЯЗЫК EN
  СОЮЗ bob | РАЗРЫВ bob
      (пока идёт подготовка игры, только эти три)
  ПРЕДЛОЖИТЬ bob КОРАБЛЬ 12 ОТДАТЬ 20B ПОЛУЧИТЬ 10M ХОДОВ 5
      ХОДОВ 5 (необязательно): через 5 ходов договор истекает
  ПРИНЯТЬ 3 | ОТМЕНИТЬ 3
  СДАТЬСЯ
  приказы хода, присланные заранее, выполнятся в начале вашего хода;
  ОЧИСТИТЬ их забывает
В начале игры, с опцией asteroid_placement=player (когда спросят):
  АСТЕРОИД K6 | АВТО
В начале игры, с опцией home_placement=player (ваша родная планета):
  РЕСУРС ЛЕС В K6 | РЕСУРС ГОРА В K6
      на внутренние клетки, пока есть свободные
  СТРОИТЬ ПУШКА В K6   (на краю)
  АВТО   (остальное разместят кубики)
Ресурсы: Б биомасса, Ц цемент, Е еда, М металл (или B C F M). У каждого
корабля 2 действия, одно за другим.`
