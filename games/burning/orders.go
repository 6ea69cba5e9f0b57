package burning

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"orrery/engine"
	"orrery/engine/lang"
)

// Order verbs, in canonical (English) spelling.
const (
	vBuild    = "BUILD"
	vDemolish = "DEMOLISH"
	vBuy      = "BUY"
	vMake     = "MAKE"
	vShip     = "SHIP"
	vFire     = "FIRE"
	vBombard  = "BOMBARD"
	vLang     = "LANG"
	vAlly     = "ALLY"
	vBreak    = "BREAK"
	vOffer    = "OFFER"
	vAccept   = "ACCEPT"
	vResign   = "RESIGN"
	vCancel   = "CANCEL"
	vClear    = "CLEAR"
	vTile     = "TILE" // setup only (option home_placement=player)
	vAuto     = "AUTO" // setup only: the dice place the rest
	aPickup   = "PICKUP"
	wAsteroid = "ASTEROID"
	wGive     = "GIVE"
	wGet      = "GET"
	wTurns    = "TURNS"

	aMove    = "MOVE"
	aAttack  = "ATTACK"
	aRaze    = "RAZE"
	aConquer = "CONQUER"
	aLoad    = "LOAD"
	aUnload  = "UNLOAD"
	aDeploy  = "DEPLOY"
)

// words maps every accepted spelling, folded, to its canonical word. It is
// built once and only read.
var words = spellings()

func spellings() map[string]string {
	words := map[string]string{}
	add := func(canon string, spellings ...string) {
		words[fold(canon)] = canon
		for _, w := range spellings {
			words[fold(w)] = canon
		}
	}
	add(vBuild, "СТРОИТЬ", "ПОСТРОИТЬ")
	add(vDemolish, "СНЕСТИ")
	add(vBuy, "КУПИТЬ")
	add(vMake, "СОЗДАТЬ")
	add(vShip, "КОРАБЛЬ")
	add(vFire, "ОГОНЬ")
	add(vBombard, "БОМБИТЬ", "БОМБАРДИРОВАТЬ")
	add(vLang, "ЯЗЫК")
	add(vAlly, "СОЮЗ")
	add(vBreak, "РАЗРЫВ", "РАЗОРВАТЬ")
	add(vOffer, "ПРЕДЛОЖИТЬ")
	add(vAccept, "ПРИНЯТЬ")
	add(vResign, "СДАТЬСЯ")
	add(vCancel, "ОТМЕНИТЬ")
	add(vClear, "ОЧИСТИТЬ")
	add(vTile, "РЕСУРС")
	add(vAuto, "АВТО")
	add(Forest, "ЛЕС")
	add(Mountain, "ГОРА", "ГОРУ")
	add(aPickup, "ЗАБРАТЬ")
	add(wAsteroid, "АСТЕРОИД")
	add(wGive, "ОТДАТЬ", "ОТДАЮ")
	add(wGet, "ПОЛУЧИТЬ", "ПОЛУЧАЮ")
	add(wTurns, "TURN", "ХОДОВ", "ХОДА", "ХОД", "ХОДЫ")
	add(aMove, "ЛЕТЕТЬ")
	add(aAttack, "АТАКОВАТЬ", "АТАКА")
	add(aRaze, "РАЗРУШИТЬ")
	add(aConquer, "ЗАХВАТИТЬ")
	add(aLoad, "ЗАГРУЗИТЬ")
	add(aUnload, "ВЫГРУЗИТЬ")
	add(aDeploy, "УСТАНОВИТЬ")
	add(Furnace, "ДОМНА", "ДОМНУ", "BLASTFURNACE")
	add(Greenhouse, "ТЕПЛИЦА", "ТЕПЛИЦУ")
	add(Spaceport, "КОСМОДРОМ")
	add(CannonS, "ПУШКА", "ПУШКУ")
	add(Tower, "БАШНЯ", "БАШНЮ")
	add(Rig, "БУРОВАЯ", "БУРОВУЮ", "DRILL")
	add(Habitat, "МЕСТООБИТАНИЕ", "ХАБИТАТ")
	add(Station, "СТАНЦИЯ", "СТАНЦИЮ")
	add(Small, "МАЛЫЙ", "МАЛЕНЬКИЙ")
	add(Medium, "СРЕДНИЙ")
	add(Large, "БОЛЬШОЙ")
	add(Huge, "ОГРОМНЫЙ")
	add(Cargo, "ГРУЗОВОЙ", "ГРУЗОВИК")
	for _, f := range factions {
		for c, u := range f.Ships {
			if c != Cargo {
				add(c, u.Name)
			}
		}
	}
	add(langEN, "ENGLISH", "АНГЛ", "АНГЛИЙСКИЙ")
	add(langRU, "RUSSIAN", "РУ", "РУС", "РУССКИЙ")
	return words
}

// preps are filler words skipped where a place or target follows.
var preps = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"AT", "ON", "IN", "TO", "FOR", "В", "НА", "У", "ДЛЯ", "К", "ВО"} {
		m[fold(w)] = true
	}
	return m
}()

// order is one parsed line.
type order struct {
	Verb  string
	Act   string // ship action
	Kind  string // structure kind or ship class
	N     int    // ship count for MAKE, contract for ACCEPT
	Ship  int    // acting or carrying ship
	Cell  Cell
	TShip int    // target ship (0: the target is TCell)
	TCell Cell   // target cell of ATTACK and FIRE
	Ast   bool   // the target is the asteroid at TCell, not what stands on it
	Place string // planet name as written, or "" when Cell names the place
	Res   Res    // amounts; OFFER: what the offerer gives
	Get   Res    // OFFER: what the partner gives
	Word  string // language or player name
	Turns int    // OFFER: the contract lapses after this many turns (0: never)
}

// phase orders a turn's lines as the rules order the turn (building, then
// ship building, then actions); demolition comes before building so a freed
// cell can be reused (003-B8).
func (o order) phase() int {
	switch o.Verb {
	case vLang, vAlly, vBreak, vOffer, vAccept, vResign, vCancel, vClear:
		return 0
	case vDemolish:
		return 1
	case vBuild:
		return 2
	case vBuy:
		return 3
	case vMake:
		return 4
	}
	return 5
}

// String is the canonical line.
func (o order) String() string {
	switch o.Verb {
	case vBuild:
		return fmt.Sprintf("BUILD %s AT %s", strings.ToUpper(o.Kind), o.Cell)
	case vDemolish:
		return "DEMOLISH " + o.Cell.String()
	case vBuy:
		return fmt.Sprintf("BUY %s AT %s FOR %d", strings.ToUpper(o.Kind), o.Place, o.Ship)
	case vMake:
		return fmt.Sprintf("MAKE %d %s AT %s", o.N, strings.ToUpper(o.Kind), o.place())
	case vShip:
		head := fmt.Sprintf("SHIP %d %s", o.Ship, o.Act)
		switch o.Act {
		case aMove, aRaze, aDeploy, aPickup:
			return head + " " + o.Cell.String()
		case aAttack:
			return head + " " + o.target()
		case aConquer:
			return head + " " + o.Place
		case aLoad, aUnload:
			return head + " " + o.Place + " " + o.Res.String()
		}
	case vFire:
		return fmt.Sprintf("FIRE %s AT %s", o.Cell, o.target())
	case vBombard:
		return "BOMBARD " + o.Place
	case vLang:
		return "LANG " + strings.ToUpper(o.Word)
	case vAlly, vBreak:
		return o.Verb + " " + o.Word
	case vOffer:
		line := fmt.Sprintf("OFFER %s SHIP %d", o.Word, o.Ship)
		if !o.Res.zero() {
			line += " GIVE " + o.Res.String()
		}
		if !o.Get.zero() {
			line += " GET " + o.Get.String()
		}
		if o.Turns > 0 {
			line += fmt.Sprintf(" TURNS %d", o.Turns)
		}
		return line
	case vAccept, vCancel:
		return fmt.Sprintf("%s %d", o.Verb, o.N)
	case vResign, vClear, vAuto:
		return o.Verb
	case vTile:
		return fmt.Sprintf("TILE %s AT %s", strings.ToUpper(o.Kind), o.Cell)
	case wAsteroid:
		return "ASTEROID " + o.Cell.String()
	}
	return "?"
}

func (o order) place() string {
	if o.Place != "" {
		return o.Place
	}
	return o.Cell.String()
}

func (o order) target() string {
	if o.TShip > 0 {
		return strconv.Itoa(o.TShip)
	}
	if o.Ast {
		return "ASTEROID " + o.TCell.String()
	}
	return o.TCell.String()
}

// problem is a line that does not read as an order, or an order the
// game does not allow: why, and how to mend it (hint, none: zero).
type problem struct {
	why, hint lang.Msg
}

func prob(why lang.Msg) *problem { return &problem{why: why} }
func (p *problem) with(hint lang.Msg) *problem {
	p.hint = hint
	return p
}

// lineErr is p as the error of line n (text as sent).
func (p *problem) lineErr(n int, text string) engine.LineError {
	return engine.LineErr(n, text, p.why, p.hint)
}

type tokens struct {
	t []string // folded
	r []string // as written
	i int
}

func (t *tokens) more() bool { return t.i < len(t.t) }
func (t *tokens) peek() string {
	if t.i < len(t.t) {
		return t.t[t.i]
	}
	return ""
}
func (t *tokens) next() (folded, raw string) {
	if t.i >= len(t.t) {
		return "", ""
	}
	t.i++
	return t.t[t.i-1], t.r[t.i-1]
}
func (t *tokens) skipPrep() {
	if preps[t.peek()] && t.i+1 < len(t.t) {
		t.i++
	}
}

// parseLine reads one line into an order, or says why it cannot. It knows
// nothing of the game: names of planets and players are checked later.
// parseEach parses every order line of text (blank lines and # comments
// are skipped) and hands each, with its line number and how many lines
// were accepted before it, to check; every error of the text is reported
// at once, as messages, with its line and fix. The setup steps' parsers share
// it; a turn's orders, checked in phase order, have their own loop.
func parseEach(text string, check func(o *order, line, accepted int) *problem) (engine.Orders, []engine.LineError) {
	var out engine.TextOrders
	var errs []engine.LineError
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o, pr := parseLine(line)
		if pr == nil {
			pr = check(&o, i+1, len(out))
		}
		if pr != nil {
			errs = append(errs, pr.lineErr(i+1, line))
			continue
		}
		out = append(out, o.String())
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

func parseLine(line string) (order, *problem) {
	raw := strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':' })
	t := &tokens{r: raw}
	for _, w := range raw {
		t.t = append(t.t, fold(w))
	}
	verbF, _ := t.next()
	verb := words[verbF]
	o := order{Verb: verb}
	need := func(what lang.Msg) *problem {
		return prob(lang.M("%s needs %s", verb, what)) // what is translated too
	}
	switch verb {
	case vBuild:
		k := words[t.peek()]
		if !isPlanetBuild(k) {
			return o, need(lang.M("a structure: FURNACE, GREENHOUSE, SPACEPORT, CANNON or TOWER"))
		}
		t.next()
		o.Kind = k
		t.skipPrep()
		c, p := cellArg(t)
		if p != nil {
			return o, p
		}
		o.Cell = c
	case vDemolish:
		c, p := cellArg(t)
		if p != nil {
			return o, p
		}
		o.Cell = c
	case vBuy:
		k := words[t.peek()]
		if !isSpaceStruct(k) {
			return o, need(lang.M("a space structure: RIG, HABITAT or STATION"))
		}
		t.next()
		o.Kind = k
		t.skipPrep()
		if _, r := t.next(); r == "" {
			return o, need(lang.M("a planet and a cargo ship: BUY RIG AT Arda FOR 12"))
		} else {
			o.Place = r
		}
		t.skipPrep()
		n, ok := shipArg(t)
		if !ok {
			return o, need(lang.M("a cargo ship number: BUY RIG AT Arda FOR 12"))
		}
		o.Ship = n
	case vMake:
		o.N = 1
		if n, err := strconv.Atoi(t.peek()); err == nil {
			if n < 1 || n > 20 {
				return o, need(lang.M("a number of ships from 1 to 20"))
			}
			o.N = n
			t.next()
		}
		k := words[t.peek()]
		if !contains(classes, k) {
			return o, need(lang.M("a ship class: SMALL, MEDIUM, LARGE, HUGE or CARGO"))
		}
		t.next()
		o.Kind = k
		t.skipPrep()
		f, r := t.next()
		if r == "" {
			return o, need(lang.M("a planet or the cell of an orbital station: MAKE 2 SMALL AT Arda"))
		}
		if c, ok := parseCell(f); ok {
			o.Cell = c
		} else {
			o.Place = r
		}
	case vShip:
		n, ok := shipArg(t)
		if !ok {
			return o, need(lang.M("a ship number: SHIP 12 MOVE K6"))
		}
		o.Ship = n
		a, _ := t.next()
		o.Act = words[a]
		switch o.Act {
		case aMove, aRaze, aDeploy, aPickup:
			t.skipPrep()
			c, p := cellArg(t)
			if p != nil {
				return o, p
			}
			o.Cell = c
		case aAttack:
			t.skipPrep()
			if p := targetArg(t, &o); p != nil {
				return o, p
			}
		case aConquer:
			t.skipPrep()
			_, r := t.next()
			if r == "" {
				return o, prob(lang.M("%s needs %s", o.Act, lang.M("a planet")))
			}
			o.Place = r
		case aLoad, aUnload:
			t.skipPrep()
			_, r := t.next()
			if r == "" {
				return o, prob(lang.M("%s needs %s", o.Act, lang.M("a planet and an amount: LOAD Arda 10B")))
			}
			o.Place = r
			res, p := amounts(t)
			if p != nil {
				return o, p
			}
			o.Res = res
		default:
			return o, prob(lang.M("write one of: %s", "MOVE, ATTACK, RAZE, CONQUER, LOAD, UNLOAD, DEPLOY, PICKUP"))
		}
	case vFire:
		c, p := cellArg(t)
		if p != nil {
			return o, p
		}
		o.Cell = c
		t.skipPrep()
		if p := targetArg(t, &o); p != nil {
			return o, p
		}
	case vBombard:
		t.skipPrep()
		_, r := t.next()
		if r == "" {
			return o, need(lang.M("a planet"))
		}
		o.Place = r
	case vLang:
		w, _ := t.next()
		l := words[w]
		if l != langEN && l != langRU {
			return o, prob(lang.M("languages: EN or RU"))
		}
		o.Word = l
	case vAlly, vBreak:
		_, r := t.next()
		if r == "" {
			return o, need(lang.M("a player"))
		}
		o.Word = r
	case vOffer:
		_, r := t.next()
		if r == "" {
			return o, need(lang.M("a player, a cargo ship and goods: OFFER bob SHIP 12 GIVE 20B GET 10M"))
		}
		o.Word = r
		if words[t.peek()] == vShip {
			t.next()
		}
		n, ok := shipArg(t)
		if !ok {
			return o, need(lang.M("a player, a cargo ship and goods: OFFER bob SHIP 12 GIVE 20B GET 10M"))
		}
		o.Ship = n
		for t.more() {
			w, _ := t.next()
			var dst *Res
			switch words[w] {
			case wGive:
				dst = &o.Res
			case wGet:
				dst = &o.Get
			case wTurns:
				n, err := strconv.Atoi(t.peek())
				if o.Turns > 0 || err != nil || n < 1 || n > maxTurns {
					return o, prob(lang.M("TURNS needs a number of turns from 1 to %d, once: OFFER bob SHIP 12 GIVE 20B TURNS 5", maxTurns))
				}
				t.next()
				o.Turns = n
				continue
			default:
				return o, need(lang.M("GIVE and/or GET with amounts: OFFER bob SHIP 12 GIVE 20B GET 10M"))
			}
			var sub tokens
			for t.more() && words[t.peek()] != wGive && words[t.peek()] != wGet && words[t.peek()] != wTurns {
				f, r := t.next()
				sub.t, sub.r = append(sub.t, f), append(sub.r, r)
			}
			r, p := amounts(&sub)
			if p != nil {
				return o, p
			}
			*dst = dst.add(r)
		}
		if o.Res.zero() && o.Get.zero() {
			return o, need(lang.M("GIVE and/or GET with amounts: OFFER bob SHIP 12 GIVE 20B GET 10M"))
		}
	case vResign, vClear, vAuto:
	case wAsteroid:
		t.skipPrep()
		c, p := cellArg(t)
		if p != nil {
			return o, p
		}
		o.Cell = c
	case vTile:
		k := words[t.peek()]
		if !isTile(k) {
			return o, need(lang.M("a tile: FOREST or MOUNTAIN, and a cell: TILE FOREST AT K6"))
		}
		t.next()
		o.Kind = k
		t.skipPrep()
		c, p := cellArg(t)
		if p != nil {
			return o, p
		}
		o.Cell = c
	case vAccept, vCancel:
		n, ok := shipArg(t)
		if !ok {
			return o, need(lang.M("a contract number: ACCEPT 3"))
		}
		o.N = n
	default:
		return o, prob(lang.M("not an order: %q", line)).with(lang.M("write one of: %s", "BUILD, DEMOLISH, BUY, MAKE, SHIP, FIRE, BOMBARD, LANG, ALLY, BREAK, OFFER, ACCEPT, CANCEL, CLEAR, RESIGN"))
	}
	if t.more() {
		_, r := t.next()
		return o, prob(lang.M("not an order: %q", r)).with(lang.M("write one of: %s", o.String()))
	}
	return o, nil
}

func cellArg(t *tokens) (Cell, *problem) {
	f, r := t.next()
	c, ok := parseCell(f)
	if !ok {
		return c, prob(lang.M("%q is not a cell", r)).with(lang.M("cells are named by column letters and row number, like K6"))
	}
	return c, nil
}

func shipArg(t *tokens) (int, bool) {
	f := strings.TrimPrefix(t.peek(), "#")
	n, err := strconv.Atoi(f)
	if err != nil || n < 1 {
		return 0, false
	}
	t.next()
	return n, true
}

func targetArg(t *tokens, o *order) *problem {
	if words[t.peek()] == wAsteroid {
		// The asteroid itself, even under a rig or habitat (003-G16).
		t.next()
		o.Ast = true
	}
	if n, ok := shipArg(t); ok && !o.Ast {
		o.TShip = n
		return nil
	}
	c, p := cellArg(t)
	if p != nil {
		return p.with(lang.M("write a ship number or a cell: ATTACK 15, ATTACK K6"))
	}
	o.TCell = c
	return nil
}

// resLetter reads a resource letter: B C F M, the Cyrillic look-alikes
// (already folded) and the Russian initials Б, Ц, Е of биомасса, цемент, еда.
func resLetter(s string) byte {
	switch s {
	case "B", "Б":
		return 'B'
	case "C", "Ц":
		return 'C'
	case "F", "E":
		return 'F'
	case "M":
		return 'M'
	}
	return 0
}

// maxTurns bounds the life of a contract (OFFER … TURNS n), far beyond
// any game.
const maxTurns = 999

// maxAmount bounds each amount in an order, far above any bank.
const maxAmount = 1000000

// amounts reads "10B 5C" or "10 B 5 C" up to the end of the line.
func amounts(t *tokens) (Res, *problem) {
	var r Res
	seen := false
	for t.more() {
		f, raw := t.next()
		i := 0
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		if i == 0 {
			return r, prob(lang.M("give an amount like 10B 5C")).with(lang.M("%q is not a cell", raw))
		}
		n, err := strconv.Atoi(f[:i])
		if err != nil || n > maxAmount {
			// Huge numbers could wrap around when added up.
			return r, prob(lang.M("give an amount like 10B 5C")).with(lang.M("at most %d of a resource in one order", maxAmount))
		}
		letter := f[i:]
		if letter == "" {
			letter, _ = t.next()
		}
		switch resLetter(letter) {
		case 'B':
			r.B += n
		case 'C':
			r.C += n
		case 'F':
			r.F += n
		case 'M':
			r.M += n
		default:
			return r, prob(lang.M("give an amount like 10B 5C"))
		}
		seen = true
	}
	if !seen || r.zero() {
		return r, prob(lang.M("give an amount like 10B 5C"))
	}
	if r.B > maxAmount || r.C > maxAmount || r.F > maxAmount || r.M > maxAmount {
		return r, prob(lang.M("give an amount like 10B 5C")).with(lang.M("at most %d of a resource in one order", maxAmount))
	}
	return r, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var _ = sort.Strings
