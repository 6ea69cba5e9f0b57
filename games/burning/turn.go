package burning

import (
	"sort"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// turn carries one player's orders through the rules, line by line. The
// same checks run twice: dry (from View.Parse, reading only what the player
// may know and changing nothing) and live (from Resolve, with the dice).
type turn struct {
	s         *State
	p         string
	d         *dice.Dice // nil when dry
	dry       bool
	spent     Res             // dry: what the earlier lines spend
	cargo     map[int]Res     // dry: what earlier lines load (+) or unload (−)
	built     map[string]bool // planet → a structure is built this turn
	demTile   map[string]bool // planet → a tile is demolished
	demBld    map[string]bool // planet → a structure is demolished
	acts      map[int]int     // ship → actions used
	moves     map[int]int     // ship → moves used
	fired     map[Cell]int    // structure → shots fired
	bought    map[int]string  // cargo ship → structure bought this turn
	bomb      map[int]bool    // ship → in a bombardment
	lastShip  int             // ship of the previous action line
	lastLine  map[int]int     // ship → line of its last action
	firstNew  int             // ships numbered from here were built this turn
	freed     map[Cell]bool   // dry: cells demolished or razed by earlier lines
	hit       map[string]bool // dry: planets whose defences earlier lines attack
	cancelled map[int]bool    // contracts cancelled by earlier lines
	conquered map[string]bool // planets conquered by earlier lines
}

func newTurn(s *State, p string, d *dice.Dice) *turn {
	return &turn{s: s, p: p, d: d, dry: d == nil, cargo: map[int]Res{}, built: map[string]bool{}, demTile: map[string]bool{},
		demBld: map[string]bool{}, acts: map[int]int{}, moves: map[int]int{}, fired: map[Cell]int{}, bought: map[int]string{},
		bomb: map[int]bool{}, lastLine: map[int]int{}, firstNew: s.NextShip, freed: map[Cell]bool{}, hit: map[string]bool{}, conquered: map[string]bool{}, cancelled: map[int]bool{}}
}

func (t *turn) fac() Faction { return factions[t.s.Faction[t.p]] }

func (t *turn) avail() Res { return t.s.Bank[t.p].sub(t.spent) }

func (t *turn) pay(price Res) *problem {
	if !t.avail().covers(price) {
		return prob(lang.M("you cannot pay %s: you have %s after the earlier lines", price.String(), t.avail().String()))
	}
	if t.dry {
		t.spent = t.spent.add(price)
	} else {
		t.s.Bank[t.p] = t.s.Bank[t.p].sub(price)
	}
	return nil
}

// planetNamed finds a planet by its name (any case, look-alike letters
// folded) or by any of its cells, with a suggestion when it is misspelt.
func (t *turn) planetNamed(name string) (*Planet, *problem) {
	f := fold(name)
	var names []string
	for _, p := range t.s.Planets {
		if fold(p.Name) == f {
			return p, nil
		}
		names = append(names, p.Name)
	}
	if c, ok := parseCell(f); ok {
		if p := t.s.planetAt(c); p != nil {
			return p, nil
		}
	}
	if best := closest(name, names); best != "" {
		return nil, prob(lang.M("no planet named %q", name)).with(lang.M("did you mean %q?", best))
	}
	return nil, prob(lang.M("no planet named %q", name)).with(lang.M("planets: %s", strings.Join(names, ", ")))
}

func (t *turn) playerNamed(name string) (string, *problem) {
	for _, p := range t.s.Seats {
		if fold(p) == fold(name) {
			return p, nil
		}
	}
	if best := closest(name, t.s.Seats); best != "" {
		return "", prob(lang.M("no player named %q", name)).with(lang.M("did you mean %q?", best))
	}
	return "", prob(lang.M("no player named %q", name)).with(lang.M("players: %s", strings.Join(t.s.Seats, ", ")))
}

// closest is the name nearest to s as engine.Closest judges it, with
// Cyrillic look-alike letters folded first, so that a name typed on a
// Russian keyboard is suggested like any other typo.
func closest(s string, names []string) string {
	folded := make([]string, len(names))
	for i, n := range names {
		folded[i] = fold(n)
	}
	best := engine.Closest(fold(s), folded)
	for i, f := range folded {
		if best != "" && f == best {
			return names[i]
		}
	}
	return ""
}

func (t *turn) ownShip(id int) (*Ship, *problem) {
	sh := t.s.ship(id)
	if sh == nil || sh.Owner != t.p || sh.ID >= t.firstNew {
		return nil, prob(lang.M("no ship %d of yours", id))
	}
	return sh, nil
}

// do checks one order and, when live, carries it out. It may rewrite the
// names in o to their canonical spelling.
func (t *turn) do(o *order, line int) *problem {
	s := t.s
	if o.phase() != 5 && o.Verb != vShip {
		t.lastShip = 0
	}
	switch o.Verb {
	case vLang:
		if !t.dry {
			s.Lang[t.p] = o.Word
			s.tell([]string{t.p}, lang.M("%s now writes in %s.", t.p, strings.ToUpper(o.Word)))
		}
	case vAlly, vBreak:
		q, pr := t.playerNamed(o.Word)
		if pr != nil {
			return pr
		}
		o.Word = q
		if q == t.p {
			return prob(lang.M("that is you"))
		}
		if o.Verb == vAlly && len(s.Seats) <= 2 {
			return prob(lang.M("alliances need more than two players"))
		}
		if o.Verb == vAlly && s.out(q) {
			return prob(lang.M("%s is eliminated", q))
		}
		if !t.dry {
			s.setAlly(t.p, q, o.Verb == vAlly)
		}
	case vOffer:
		return t.offer(o)
	case vCancel:
		c := t.s.contract(o.N)
		if c == nil || (c.From != t.p && c.To != t.p) || c.Cancelled || t.cancelled[c.ID] {
			return prob(lang.M("you have no contract %d", o.N))
		}
		t.cancelled[c.ID] = true
		if !t.dry {
			c.Accepted, c.Cancelled = false, true
			t.s.tell([]string{c.From, c.To}, lang.M("%s cancels contract %d.", t.p, c.ID))
		}
	case vClear:
		if !t.dry && len(t.s.Advance[t.p]) > 0 {
			delete(t.s.Advance, t.p)
			t.s.tell([]string{t.p}, lang.M("%s's advance orders are cleared.", t.p))
		}
	case vResign:
		if !t.dry {
			t.s.resign(t.p)
		}
	case vAccept:
		c := t.s.contract(o.N)
		if c == nil || c.To != t.p || c.Accepted || c.Cancelled || t.cancelled[c.ID] {
			return prob(lang.M("no contract %d offered to you", o.N))
		}
		if !t.dry {
			c.Accepted = true
			t.s.tell([]string{c.From, c.To}, lang.M("%s accepts contract %d.", t.p, c.ID))
		}
	case vBuild:
		return t.build(o)
	case vDemolish:
		return t.demolish(o)
	case vBuy:
		return t.buy(o)
	case vMake:
		return t.makeShips(o)
	case vShip:
		return t.act(o, line)
	case vTile, vAuto, wAsteroid:
		return prob(lang.M("TILE, ASTEROID and AUTO are only for the setup steps at the start of the game"))
	case vFire:
		t.lastShip = 0
		return t.fire(o)
	case vBombard:
		t.lastShip = 0
		return t.bombard(o)
	}
	return nil
}

func (s *State) setAlly(p, q string, on bool) {
	list := s.Allies[p]
	has := contains(list, q)
	switch {
	case on && !has:
		list = append(list, q)
		sort.Strings(list)
		s.tell(nil, lang.M("%s declares an alliance with %s.", p, q))
	case !on && has:
		var out []string
		for _, x := range list {
			if x != q {
				out = append(out, x)
			}
		}
		list = out
		if list == nil {
			list = []string{}
		}
		s.tell(nil, lang.M("%s breaks the alliance with %s.", p, q))
	}
	s.Allies[p] = list
}

func (t *turn) ownPlanetAt(c Cell) (*Planet, *problem) {
	if !t.s.Grid.in(c) {
		return nil, prob(lang.M("%s is off the board", c.String()))
	}
	pl := t.s.planetAt(c)
	if pl == nil || pl.Owner != t.p {
		return nil, prob(lang.M("%s is not on a planet of yours", c.String()))
	}
	return pl, nil
}

func (t *turn) catBlocks(kind string) *problem {
	if (t.s.Cat == 1 && (kind == Greenhouse || kind == Habitat)) || (t.s.Cat == 20 && (kind == Furnace || kind == Rig)) {
		return prob(lang.M("%s cannot be built during %s", term(kind), aTerm(t.s.catKey())))
	}
	return nil
}

func (t *turn) build(o *order) *problem {
	pl, pr := t.ownPlanetAt(o.Cell)
	if pr != nil {
		return pr
	}
	switch {
	case o.Cell == pl.Centre:
		return prob(lang.M("the centre cell %s is for the monolith only", o.Cell.String()))
	case pl.site(o.Cell) >= 0 && !t.freed[o.Cell]:
		return prob(lang.M("%s is taken by %s", o.Cell.String(), aTerm(pl.Sites[pl.site(o.Cell)].Kind)))
	case isDefence(o.Kind) && dist(pl.Centre, o.Cell) != pl.radius():
		return prob(lang.M("defences stand only on the outer border of a planet"))
	case !allowed(pl.Biome, o.Kind):
		return prob(lang.M("%s cannot be built on %s planet", aTerm(o.Kind), aTerm(pl.Biome)))
	case t.built[pl.Name]:
		return prob(lang.M("you already build on %s this turn (one structure per planet per turn)", pl.Name))
	}
	if pr := t.catBlocks(o.Kind); pr != nil {
		return pr
	}
	if pr := t.pay(t.fac().Builds[o.Kind].Price); pr != nil {
		return pr
	}
	t.built[pl.Name] = true
	if !t.dry {
		pl.Sites = append(pl.Sites, Site{Cell: o.Cell, Kind: o.Kind})
		t.s.told(draw.Built, nil, o.Cell, t.p)
		t.s.tell(nil, lang.M("%s builds %s at %s (%s).", t.p, aTerm(o.Kind), o.Cell.String(), pl.Name))
	}
	return nil
}

func (t *turn) demolish(o *order) *problem {
	pl, pr := t.ownPlanetAt(o.Cell)
	if pr != nil {
		return pr
	}
	i := pl.site(o.Cell)
	if i < 0 || t.freed[o.Cell] {
		return prob(lang.M("nothing to demolish at %s", o.Cell.String()))
	}
	kind := pl.Sites[i].Kind
	done := t.demBld
	if isTile(kind) {
		done = t.demTile
	}
	if done[pl.Name] {
		return prob(lang.M("you already demolish %s on %s this turn", aTerm(kind), pl.Name))
	}
	done[pl.Name] = true
	if t.dry {
		t.freed[o.Cell] = true
	} else {
		pl.Sites = append(pl.Sites[:i], pl.Sites[i+1:]...)
		t.s.tell(nil, lang.M("%s demolishes the %s at %s (%s).", t.p, term(kind), o.Cell.String(), pl.Name))
	}
	return nil
}

func (t *turn) spaceportPlanet(name string) (*Planet, *problem) {
	pl, pr := t.planetNamed(name)
	if pr != nil {
		return nil, pr
	}
	if pl.Owner != t.p || pl.count(Spaceport) == 0 {
		return nil, prob(lang.M("%s has no spaceport of yours", pl.Name))
	}
	return pl, nil
}

func (t *turn) buy(o *order) *problem {
	pl, pr := t.spaceportPlanet(o.Place)
	if pr != nil {
		return pr
	}
	o.Place = pl.Name
	sh, pr := t.ownShip(o.Ship)
	if pr != nil {
		return pr
	}
	if sh.Class != Cargo {
		return prob(lang.M("ship %d is not a cargo ship", sh.ID))
	}
	if k := t.load(sh); k != "" {
		return prob(lang.M("cargo ship %d already carries %s", sh.ID, aTerm(k)))
	}
	if !pl.touches(sh.Cell) {
		return prob(lang.M("ship %d does not touch %s", sh.ID, pl.Name))
	}
	if pr := t.catBlocks(o.Kind); pr != nil {
		return pr
	}
	if pr := t.pay(t.fac().Builds[o.Kind].Price); pr != nil {
		return pr
	}
	t.bought[sh.ID] = o.Kind
	if !t.dry {
		sh.Load = o.Kind
		t.s.tell([]string{t.p}, lang.M("%s buys %s at %s and loads it on cargo ship %d.", t.p, aTerm(o.Kind), pl.Name, sh.ID))
	}
	return nil
}

// load is what structure a cargo ship carries, counting this turn's lines.
func (t *turn) load(sh *Ship) string {
	if k, ok := t.bought[sh.ID]; ok {
		return k
	}
	return sh.Load
}

func (t *turn) makeShips(o *order) *problem {
	var spots func() []Cell
	var at string
	if o.Place != "" {
		pl, pr := t.spaceportPlanet(o.Place)
		if pr != nil {
			return pr
		}
		o.Place = pl.Name
		at = pl.Name
		spots = func() []Cell {
			var out []Cell
			for _, c := range hexCells(pl.Centre, pl.radius()+1) {
				if pl.touches(c) {
					out = append(out, c)
				}
			}
			return out
		}
	} else {
		st := t.s.structAt(o.Cell)
		if st == nil || st.Owner != t.p || st.Kind != Station {
			return prob(lang.M("no spaceport or orbital station of yours at %s", o.Cell.String()))
		}
		at = o.Cell.String()
		spots = func() []Cell { return t.s.Grid.neighbours(st.Cell) }
	}
	if pr := t.pay(t.fac().Ships[o.Kind].Price.times(o.N)); pr != nil {
		return pr
	}
	if t.dry {
		return nil
	}
	for i := 0; i < o.N; i++ {
		c, ok := t.s.nearestFree(spots())
		if !ok {
			break
		}
		sh := &Ship{ID: t.s.NextShip, Owner: t.p, Class: o.Kind, Cell: c}
		t.s.NextShip++
		t.s.Ships = append(t.s.Ships, sh)
		t.s.told(draw.Built, nil, c, t.p)
		t.s.tell(nil, lang.M("%s builds %s %d at %s.", t.p, t.s.unit(sh).Name, sh.ID, c.String()+" ("+at+")"))
	}
	return nil
}

// nearestFree is the first free cell among start, or else the nearest free
// cell found by a breadth-first search outwards (N3: "or, if those cells
// are occupied, in the nearest free cell"). The order is fixed, so no die.
func (s *State) nearestFree(start []Cell) (Cell, bool) {
	seen := map[Cell]bool{}
	queue := append([]Cell(nil), start...)
	for _, c := range start {
		seen[c] = true
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if s.free(c) {
			return c, true
		}
		for _, n := range s.Grid.neighbours(c) {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return Cell{}, false
}

// spend counts one action of sh (003-G6, 003-G7).
func (t *turn) spend(sh *Ship, act string, line int) *problem {
	if t.s.Cat == 20 {
		return prob(lang.M("your ships cannot act during %s", aTerm(t.s.catKey())))
	}
	if t.bomb[sh.ID] {
		return prob(lang.M("ship %d acts already in the bombardment", sh.ID))
	}
	if t.acts[sh.ID] > 0 && t.lastShip != sh.ID {
		return prob(lang.M("ship %d's actions must follow each other: put this line right after line %d", sh.ID, t.lastLine[sh.ID]))
	}
	limit := 2
	if sh.Class == Huge {
		limit = 4
		if t.s.HugeMode == "b" && act == aMove && t.moves[sh.ID] > 0 {
			return prob(lang.M("a huge ship moves at most once a turn (N9 reading b)"))
		}
		if t.s.HugeMode != "b" && t.acts[sh.ID] > 0 && (act == aMove || t.moves[sh.ID] > 0) {
			return prob(lang.M("a huge ship either moves once or makes up to four other actions (N9 reading a)"))
		}
	}
	if t.acts[sh.ID] >= limit {
		return prob(lang.M("ship %d has no actions left (%d a turn)", sh.ID, limit))
	}
	t.acts[sh.ID]++
	if act == aMove {
		t.moves[sh.ID]++
	}
	t.lastShip, t.lastLine[sh.ID] = sh.ID, line
	return nil
}

// act runs one ship action. A live action that fails is lost (its action
// is spent); a rejected line in a dry run spends nothing, so that one
// mistake does not bring a cascade of errors on the lines after it.
func (t *turn) act(o *order, line int) *problem {
	sh, pr := t.ownShip(o.Ship)
	if pr != nil {
		return pr
	}
	acts, moves, last, lastLine := t.acts[sh.ID], t.moves[sh.ID], t.lastShip, t.lastLine[sh.ID]
	if pr := t.spend(sh, o.Act, line); pr != nil {
		return pr
	}
	pr = t.action(sh, o)
	if pr != nil && t.dry {
		t.acts[sh.ID], t.moves[sh.ID], t.lastShip, t.lastLine[sh.ID] = acts, moves, last, lastLine
	}
	return pr
}

// structures reports whether pl still has a structure, as far as this turn
// knows: in a dry run, structures razed earlier are gone, and a planet whose
// defences this turn attacks may have lost them (the dice decide, later).
func (t *turn) structures(pl *Planet, defencesOnly bool) bool {
	if t.dry && t.hit[pl.Name] {
		return false
	}
	for _, st := range pl.Sites {
		if t.freed[st.Cell] || isTile(st.Kind) {
			continue
		}
		if !defencesOnly || isDefence(st.Kind) {
			return true
		}
	}
	return false
}

func (t *turn) action(sh *Ship, o *order) *problem {
	// In a dry run a ship that moved earlier in the same orders may be
	// elsewhere by now, so checks of where it stands wait for the live run.
	// (After spend, a MOVE has counted itself.)
	placed := !t.dry || t.moves[sh.ID] == 0 || (o.Act == aMove && t.moves[sh.ID] == 1)
	u := t.s.unit(sh)
	switch o.Act {
	case aMove:
		if !placed {
			return nil
		}
		if !t.s.reachable(sh.Cell, o.Cell, u.Speed) {
			return prob(lang.M("no way to %s within %s through free space", o.Cell.String(), steps(u.Speed)))
		}
		if !t.dry {
			from := sh.Cell
			sh.Cell = o.Cell
			t.s.told(draw.Move, &from, o.Cell, sh.Owner)
			t.s.tell(nil, lang.M("Ship %d (%s) moves to %s.", sh.ID, sh.Owner, o.Cell.String()))
		}
	case aAttack:
		if sh.Class == Cargo {
			return prob(lang.M("cargo ships do not attack"))
		}
		f, pr := t.foe(o, sh.Cell, placed)
		if pr != nil || t.dry {
			return pr
		}
		f.at = t.target(o)
		t.s.told(draw.Attack, &sh.Cell, f.at, t.p)
		t.combat(u.Die, t.s.shipName(sh), f)
	case aRaze:
		if sh.Class == Cargo {
			return prob(lang.M("cargo ships do not attack"))
		}
		pl := t.s.planetAt(o.Cell)
		i := -1
		if pl != nil {
			i = pl.site(o.Cell)
		}
		if i < 0 || t.freed[o.Cell] || isTile(pl.Sites[i].Kind) || isDefence(pl.Sites[i].Kind) {
			return prob(lang.M("no ordinary structure at %s to raze", o.Cell.String()))
		}
		if pl.Owner == t.p {
			return prob(lang.M("you cannot attack your own %s", term(pl.Sites[i].Kind)))
		}
		if placed && !pl.touches(sh.Cell) {
			return prob(lang.M("ship %d does not touch %s", sh.ID, pl.Name))
		}
		if t.structures(pl, true) {
			return prob(lang.M("%s still has defences: destroy them first", pl.Name))
		}
		if t.dry {
			t.freed[o.Cell] = true
		} else {
			kind := pl.Sites[i].Kind
			pl.Sites = append(pl.Sites[:i], pl.Sites[i+1:]...)
			t.s.told(draw.Attack, &sh.Cell, o.Cell, t.p)
			t.s.told(draw.Destroyed, nil, o.Cell, "")
			t.s.tell(nil, lang.M("Ship %d (%s) razes the %s at %s.", sh.ID, sh.Owner, term(kind), o.Cell.String()))
		}
	case aConquer:
		pl, pr := t.planetNamed(o.Place)
		if pr != nil {
			return pr
		}
		o.Place = pl.Name
		if pl.Owner == t.p || t.conquered[pl.Name] {
			return prob(lang.M("%s is already yours", pl.Name))
		}
		if placed && !pl.touches(sh.Cell) {
			return prob(lang.M("ship %d does not touch %s", sh.ID, pl.Name))
		}
		if pl.Owner != "" && t.structures(pl, false) {
			return prob(lang.M("%s still has structures: destroy them first", pl.Name))
		}
		t.conquered[pl.Name] = true
		if !t.dry {
			pl.Owner = t.p
			t.s.told(draw.Captured, nil, pl.Centre, t.p)
			t.s.tell(nil, lang.M("%s conquers %s and sets a monolith at %s.", t.p, pl.Name, pl.Centre.String()))
		}
	case aLoad, aUnload:
		if sh.Class != Cargo {
			return prob(lang.M("only cargo ships load, unload and deploy"))
		}
		pl, pr := t.planetNamed(o.Place)
		if pr != nil {
			return pr
		}
		o.Place = pl.Name
		if placed && !pl.touches(sh.Cell) {
			return prob(lang.M("ship %d does not touch %s", sh.ID, pl.Name))
		}
		if o.Act == aLoad {
			return t.loadRes(sh, pl, o.Res)
		}
		return t.unloadRes(sh, pl, o.Res)
	case aPickup:
		if sh.Class != Cargo {
			return prob(lang.M("only cargo ships load, unload and deploy"))
		}
		if k := t.load(sh); k != "" {
			return prob(lang.M("cargo ship %d already carries %s", sh.ID, aTerm(k)))
		}
		st := t.s.structAt(o.Cell)
		if st == nil || st.Owner != t.p {
			return prob(lang.M("no space structure of yours at %s", o.Cell.String()))
		}
		if placed && dist(sh.Cell, o.Cell) != 1 {
			return prob(lang.M("%s is not next to %s", o.Cell.String(), sh.Cell.String()))
		}
		t.bought[sh.ID] = st.Kind
		if !t.dry {
			// The structure is seen leaving; once aboard it is cargo again.
			t.s.removeStruct(st)
			sh.Load = st.Kind
			delete(t.bought, sh.ID)
			t.s.tell(nil, lang.M("Cargo ship %d (%s) picks up the %s at %s.", sh.ID, t.p, term(st.Kind), o.Cell.String()))
		}
	case aDeploy:
		if sh.Class != Cargo {
			return prob(lang.M("only cargo ships load, unload and deploy"))
		}
		k := t.load(sh)
		if k == "" {
			return prob(lang.M("cargo ship %d carries no structure", sh.ID))
		}
		if placed {
			ok := dist(sh.Cell, o.Cell) == 1
			if k == Station {
				if !ok || !t.s.free(o.Cell) {
					return prob(lang.M("a station goes on a free space cell next to the ship"))
				}
			} else if !ok || !t.s.asteroidAt(o.Cell) || t.s.structAt(o.Cell) != nil {
				return prob(lang.M("%s goes on a free asteroid next to the ship", aTerm(k)))
			}
		}
		delete(t.bought, sh.ID)
		if t.dry {
			t.bought[sh.ID] = "" // delivered: carries nothing more
			return nil
		}
		sh.Load = ""
		t.s.Structs = append(t.s.Structs, &Struct{Kind: k, Owner: t.p, Cell: o.Cell})
		t.s.told(draw.Built, nil, o.Cell, t.p)
		t.s.tell(nil, lang.M("Cargo ship %d (%s) deploys %s at %s.", sh.ID, t.p, aTerm(k), o.Cell.String()))
	}
	return nil
}

func (t *turn) loadRes(sh *Ship, pl *Planet, r Res) *problem {
	if pl.Owner != t.p {
		return t.loadByContract(sh, pl, r)
	}
	if !t.avail().covers(r) {
		return prob(lang.M("you have only %s", t.avail().String()))
	}
	if t.dry {
		t.spent = t.spent.add(r)
		t.cargo[sh.ID] = t.cargo[sh.ID].add(r)
		return nil
	}
	t.s.Bank[t.p] = t.s.Bank[t.p].sub(r)
	sh.Cargo = sh.Cargo.add(r)
	t.s.tell([]string{t.p}, lang.M("Ship %d loads %s at %s.", sh.ID, r.String(), pl.Name))
	return nil
}

func (t *turn) unloadRes(sh *Ship, pl *Planet, r Res) *problem {
	if pl.Owner == "" {
		return prob(lang.M("%s has no owner to deliver to", pl.Name))
	}
	have := sh.Cargo.add(t.cargo[sh.ID])
	if !have.covers(r) {
		return prob(lang.M("cargo ship %d carries only %s", sh.ID, have.String()))
	}
	if t.dry {
		t.cargo[sh.ID] = t.cargo[sh.ID].sub(r)
		return nil
	}
	sh.Cargo = sh.Cargo.sub(r)
	t.s.Bank[pl.Owner] = t.s.Bank[pl.Owner].add(r)
	to := []string{t.p}
	if pl.Owner != t.p {
		to = append(to, pl.Owner)
	}
	t.s.tell(to, lang.M("Ship %d delivers %s to %s at %s.", sh.ID, r.String(), pl.Owner, pl.Name))
	for _, c := range t.s.Contracts {
		if !c.Accepted || c.Ship != sh.ID || (c.From != pl.Owner && c.To != pl.Owner) {
			continue
		}
		// "When each of the players receives the delivery, it must be said
		// aloud." The partner receives whatever the ship unloads at its
		// planet; the ship's owner, at home, what the ship took from the
		// partner under the contract and has not yet brought home (its
		// own goods unloaded back home are nobody's business).
		got := r
		if pl.Owner == t.p {
			fromPartner := c.LoadedTo
			if t.p == c.To {
				fromPartner = c.Loaded
			}
			got = least(r, fromPartner.sub(c.Home))
			c.Home = c.Home.add(got)
		}
		if !got.zero() {
			t.s.tell(nil, lang.M("%s says aloud: received %s from cargo ship %d under contract %d.", pl.Owner, got.String(), sh.ID, c.ID))
		}
		break
	}
	return nil
}

// least is the smaller of a and b, resource by resource (never below 0).
func least(a, b Res) Res {
	m := func(x, y int) int { return max(0, min(x, y)) }
	return Res{B: m(a.B, b.B), C: m(a.C, b.C), F: m(a.F, b.F), M: m(a.M, b.M)}
}

func (s *State) reachable(from, to Cell, steps int) bool {
	return s.path(from, to, steps, func(Cell) bool { return false })
}

// path reports whether to can be reached from from in at most steps moves
// through free space; vacant says which occupied cells count as free.
func (s *State) path(from, to Cell, steps int, vacant func(Cell) bool) bool {
	free := func(c Cell) bool { return s.free(c) || (vacant(c) && s.Grid.in(c) && s.planetAt(c) == nil) }
	if !free(to) {
		return false
	}
	seen := map[Cell]bool{from: true}
	frontier := []Cell{from}
	for k := 0; k < steps; k++ {
		var next []Cell
		for _, c := range frontier {
			for _, n := range s.Grid.neighbours(c) {
				if seen[n] || !free(n) {
					continue
				}
				if n == to {
					return true
				}
				seen[n] = true
				next = append(next, n)
			}
		}
		frontier = next
	}
	return false
}

// foe is something that can be attacked: its name, owner, defence die,
// shield, and how it is removed.
type foe struct {
	name   lang.Msg
	owner  string
	die    int
	shield int
	ship   *Ship
	kill   func()
	at     Cell // where it stands, for the step's story
}

// foe finds the target of an ATTACK or FIRE made from cell from.
func (t *turn) foe(o *order, from Cell, checkPlace bool) (*foe, *problem) {
	s := t.s
	var c Cell
	var sh *Ship
	if o.TShip > 0 {
		sh = s.ship(o.TShip)
		if sh == nil {
			return nil, prob(lang.M("nothing to attack at %s", strconv.Itoa(o.TShip)))
		}
		c = sh.Cell
	} else {
		c = o.TCell
		sh = s.shipAt(c)
	}
	if o.Ast {
		if !s.asteroidAt(c) {
			return nil, prob(lang.M("no asteroid at %s", c.String()))
		}
		if checkPlace && dist(from, c) != 1 {
			return nil, prob(lang.M("%s is not next to %s", c.String(), from.String()))
		}
		return &foe{name: lang.M("asteroid at %s", c.String()), die: 0, shield: 18, kill: func() { s.removeAsteroid(c) }}, nil
	}
	if checkPlace && dist(from, c) != 1 {
		return nil, prob(lang.M("%s is not next to %s", c.String(), from.String()))
	}
	switch {
	case sh != nil:
		if sh.Owner == t.p {
			return nil, prob(lang.M("you cannot attack your own %s", term(sh.Class)))
		}
		u := s.unit(sh)
		return &foe{name: s.shipName(sh), owner: sh.Owner, die: u.Die, shield: u.Shield, ship: sh, kill: func() { s.removeShip(sh) }}, nil
	case s.structAt(c) != nil:
		st := s.structAt(c)
		if st.Owner == t.p {
			return nil, prob(lang.M("you cannot attack your own %s", term(st.Kind)))
		}
		u := factions[s.Faction[st.Owner]].Builds[st.Kind]
		return &foe{name: lang.M("%s (%s) at %s", capTerm(st.Kind), st.Owner, c.String()), owner: st.Owner, die: u.Die, shield: u.Shield,
			kill: func() { s.removeStruct(st) }}, nil
	case s.asteroidAt(c):
		// 003-G16: no die (a defence roll of 0), shield 18.
		return &foe{name: lang.M("asteroid at %s", c.String()), die: 0, shield: 18, kill: func() { s.removeAsteroid(c) }}, nil
	}
	if pl := s.planetAt(c); pl != nil {
		if i := pl.site(c); i >= 0 {
			kind := pl.Sites[i].Kind
			if isTile(kind) {
				return nil, prob(lang.M("nothing to attack at %s", c.String()))
			}
			if !isDefence(kind) {
				return nil, prob(lang.M("%s has no die: raze it with RAZE", aTerm(kind)))
			}
			if pl.Owner == t.p {
				return nil, prob(lang.M("you cannot attack your own %s", term(kind)))
			}
			t.hit[pl.Name] = true
			u := factions[s.Faction[pl.Owner]].Builds[kind]
			return &foe{name: lang.M("%s (%s) at %s", capTerm(kind), pl.Owner, c.String()), owner: pl.Owner, die: u.Die, shield: u.Shield,
				kill: func() { pl.Sites = append(pl.Sites[:pl.site(c)], pl.Sites[pl.site(c)+1:]...) }}, nil
		}
	}
	return nil, prob(lang.M("nothing to attack at %s", c.String()))
}

// combat is one attack by opposed dice (003-R8): the attack roll must beat
// both the defender's roll and its shield; ties fail.
func (t *turn) combat(die int, name lang.Msg, f *foe) {
	a := t.d.RollMsg(die, lang.M("%s attacks %s", name, f.name))
	def := 0
	if f.die > 0 {
		def = t.d.RollMsg(f.die, lang.M("%s defends", f.name))
	}
	t.s.told(draw.Battle, nil, f.at, "")
	if a > def && a > f.shield {
		t.s.told(draw.Destroyed, nil, f.at, "")
		t.s.tell(nil, lang.M("%s attacks %s: %d against %d, shield %d: destroyed.", name, f.name, a, def, f.shield))
		f.kill()
		if f.ship != nil && f.ship.Class == Cargo {
			t.loot(f.ship)
		}
		return
	}
	t.s.tell(nil, lang.M("%s attacks %s: %d against %d, shield %d: no effect.", name, f.name, a, def, f.shield))
}

// loot gives the attacker a destroyed cargo ship's price, its cargo, and
// any structure it carried at the attacker's price for it (003-G15). The
// manifest is revealed to all (003-H1: "turn it face up").
func (t *turn) loot(sh *Ship) {
	got := factions[t.s.Faction[sh.Owner]].Ships[Cargo].Price.add(sh.Cargo)
	what := lang.ArgOf(sh.Cargo.String())
	if sh.Cargo.zero() {
		what = term("nothing")
	}
	if sh.Load != "" {
		got = got.add(t.fac().Builds[sh.Load].Price)
		what = lang.ArgOf(lang.M("%s + %s", sh.Cargo.String(), term(sh.Load)))
		if sh.Cargo.zero() {
			what = term(sh.Load)
		}
	}
	t.s.tell(nil, lang.M("Cargo ship %d carried %s.", sh.ID, what))
	t.s.Bank[t.p] = t.s.Bank[t.p].add(got)
	t.s.tell(nil, lang.M("%s takes the wreck of cargo ship %d: %s.", t.p, sh.ID, got.String()))
}

func (s *State) contract(id int) *Contract {
	for _, c := range s.Contracts {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// resign takes p out of the game (003(h)): planets become uninhabited,
// ships and space structures are removed, contracts lapse.
func (s *State) resign(p string) {
	for _, pl := range s.Planets {
		if pl.Owner == p {
			pl.Owner = ""
			var keep []Site
			for _, st := range pl.Sites {
				if isTile(st.Kind) {
					keep = append(keep, st)
				}
			}
			pl.Sites = keep
		}
	}
	var ships []*Ship
	for _, sh := range s.Ships {
		if sh.Owner != p {
			ships = append(ships, sh)
		}
	}
	s.Ships = ships
	var structs []*Struct
	for _, st := range s.Structs {
		if st.Owner != p {
			structs = append(structs, st)
		}
	}
	s.Structs = structs
	for _, c := range s.Contracts {
		if c.From == p || c.To == p {
			c.Accepted, c.Cancelled = false, true
		}
	}
	s.tell(nil, lang.M("%s resigns.", p))
}

func (t *turn) offer(o *order) *problem {
	q, pr := t.playerNamed(o.Word)
	if pr != nil {
		return pr
	}
	o.Word = q
	if q == t.p {
		return prob(lang.M("that is you"))
	}
	if t.s.out(q) {
		return prob(lang.M("%s is eliminated", q))
	}
	sh := t.s.ship(o.Ship)
	if sh == nil || sh.Class != Cargo || (sh.Owner != t.p && sh.Owner != q) {
		return prob(lang.M("ship %d is not a cargo ship of yours or %s's", o.Ship, q))
	}
	if !t.dry {
		c := &Contract{ID: len(t.s.Contracts) + 1, From: t.p, To: q, Ship: sh.ID, Give: o.Res, Get: o.Get}
		t.s.Contracts = append(t.s.Contracts, c)
		t.s.tell([]string{t.p, q}, lang.M("%s offers %s contract %d: %s gives %s, %s gives %s, carried by cargo ship %d.",
			t.p, q, c.ID, t.p, c.Give.String(), q, c.Get.String(), sh.ID))
		if o.Turns > 0 {
			c.Expires = t.s.Round + o.Turns
			t.s.tell([]string{t.p, q}, lang.M("Contract %d lapses at the start of turn %d unless cancelled before.", c.ID, c.Expires))
		}
	}
	return nil
}

// loadByContract loads at another player's planet what an accepted
// contract says that player gives (003-G19). The giver's bank is hidden
// from the loader, so whether it can pay is known only when the turn runs.
func (t *turn) loadByContract(sh *Ship, pl *Planet, r Res) *problem {
	for _, c := range t.s.Contracts {
		if !c.Accepted || t.cancelled[c.ID] || c.Ship != sh.ID || (c.From != pl.Owner && c.To != pl.Owner) {
			continue
		}
		owed, taken := c.Give, &c.Loaded
		if pl.Owner == c.To {
			owed, taken = c.Get, &c.LoadedTo
		}
		left := owed.sub(*taken).sub(t.cargo[-c.ID])
		if !left.covers(r) {
			return prob(lang.M("%s gives only %s more under contract %d", pl.Owner, left.String(), c.ID))
		}
		if t.dry {
			t.cargo[-c.ID] = t.cargo[-c.ID].add(r)
			t.cargo[sh.ID] = t.cargo[sh.ID].add(r)
			return nil
		}
		if !t.s.Bank[pl.Owner].covers(r) {
			return prob(lang.M("%s cannot pay %s", pl.Owner, r.String()))
		}
		t.s.Bank[pl.Owner] = t.s.Bank[pl.Owner].sub(r)
		*taken = taken.add(r)
		sh.Cargo = sh.Cargo.add(r)
		t.s.tell([]string{t.p, pl.Owner}, lang.M("Ship %d loads %s at %s.", sh.ID, r.String(), pl.Name))
		return nil
	}
	return prob(lang.M("no accepted contract lets ship %d load at %s", sh.ID, pl.Name))
}

func (s *State) removeShip(sh *Ship) {
	for _, c := range s.Contracts {
		if !c.Cancelled && c.Ship == sh.ID {
			// 003-H2: the parties see the contract's terms again. An
			// offer not yet accepted lapses too: its ship is gone, so
			// accepting it would authorise nothing.
			s.tell([]string{c.From, c.To}, lang.M("Contract %d (%s gives %s, %s gives %s) lost its cargo ship %d.",
				c.ID, c.From, c.Give.String(), c.To, c.Get.String(), sh.ID))
			c.Accepted, c.Cancelled = false, true
		}
	}
	for i, x := range s.Ships {
		if x == sh {
			s.Ships = append(s.Ships[:i], s.Ships[i+1:]...)
			return
		}
	}
}

func (s *State) removeStruct(st *Struct) {
	for i, x := range s.Structs {
		if x == st {
			s.Structs = append(s.Structs[:i], s.Structs[i+1:]...)
			return
		}
	}
}

// removeAsteroid destroys an asteroid and any structure on it (N20).
func (s *State) removeAsteroid(c Cell) {
	if st := s.structAt(c); st != nil {
		s.removeStruct(st)
	}
	for i, a := range s.Asteroids {
		if a == c {
			s.Asteroids = append(s.Asteroids[:i], s.Asteroids[i+1:]...)
			return
		}
	}
}

// shooter finds the player's structure at c that may fire, with its table
// row.
func (t *turn) shooter(c Cell) (string, Unit, bool) {
	if st := t.s.structAt(c); st != nil && st.Owner == t.p {
		return st.Kind, t.fac().Builds[st.Kind], true
	}
	if pl := t.s.planetAt(c); pl != nil && pl.Owner == t.p {
		if i := pl.site(c); i >= 0 && isDefence(pl.Sites[i].Kind) {
			k := pl.Sites[i].Kind
			return k, t.fac().Builds[k], true
		}
	}
	return "", Unit{}, false
}

func (t *turn) fire(o *order) *problem {
	kind, u, ok := t.shooter(o.Cell)
	if !ok {
		return prob(lang.M("no structure of yours that fires at %s", o.Cell.String()))
	}
	if t.fired[o.Cell] >= shots(kind) {
		return prob(lang.M("the %s at %s has fired %s already", term(kind), o.Cell.String(), times(t.fired[o.Cell])))
	}
	f, pr := t.foe(&order{TShip: o.TShip, TCell: o.TCell, Ast: o.Ast}, o.Cell, true)
	if pr != nil {
		return pr
	}
	t.fired[o.Cell]++
	if !t.dry {
		t.s.told(draw.Attack, &o.Cell, f.at, t.p)
		t.combat(u.Die, lang.M("%s (%s) at %s", capTerm(kind), t.p, o.Cell.String()), f)
	}
	return nil
}

func (t *turn) bombard(o *order) *problem {
	pl, pr := t.planetNamed(o.Place)
	if pr != nil {
		return pr
	}
	o.Place = pl.Name
	vs := vertices(pl.Centre, pl.radius())
	var ships []*Ship
	for _, c := range vs {
		sh := t.s.shipAt(c)
		if sh == nil || sh.Owner != t.p || sh.Class != Huge || sh.ID >= t.firstNew || t.acts[sh.ID] > 0 || t.bomb[sh.ID] {
			return prob(lang.M("a bombardment needs six huge ships of yours on %s, none of which acted this turn", cellList(vs)))
		}
		ships = append(ships, sh)
	}
	if t.s.Cat == 20 {
		return prob(lang.M("your ships cannot act during %s", aTerm(t.s.catKey())))
	}
	for _, sh := range ships {
		t.bomb[sh.ID] = true
	}
	if !t.dry {
		var keep []Site
		for _, st := range pl.Sites {
			if isTile(st.Kind) {
				keep = append(keep, st)
			}
		}
		pl.Sites = keep
		t.s.told(draw.Battle, nil, pl.Centre, "")
		t.s.told(draw.Destroyed, nil, pl.Centre, "")
		t.s.tell(nil, lang.M("%s bombards %s from six vertices: every structure is destroyed.", t.p, pl.Name))
	}
	return nil
}
