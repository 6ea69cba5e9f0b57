package burning

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
)

// Bot plays towards victory. It grows its economy (the producers its
// faction's ships are paid with, then a spaceport), sends small ships to
// claim empty planets and bigger ones against the nearest enemy: it shoots
// down the defences it can beat, razes what is left, conquers, and hunts
// the ships and space structures of players who have no planet left.
//
// It plans each turn as the rules will run it: it knows where every ship of
// its own will stand after its earlier lines (and where this turn's new
// ships will appear), so its moves are always possible and only the dice
// can make an action fail. Every line is also checked by the same dry run
// Parse uses, so the text always parses. It reads only its view: public
// positions, its own bank and cargo.
func (ruleset) Bot(ev engine.View, p engine.Prompt, r *rand.Rand) string {
	v, ok := ev.(view)
	if ok && v.s.AstPick != nil {
		if v.s.AstPick.Chooser != p.Player || p.Kind != engine.KindStep {
			return ""
		}
		return v.botAsteroid(r.IntN)
	}
	if ok && v.s.Placing != nil {
		if v.s.Placing[p.Player] == nil || !strings.HasPrefix(p.ID, placePrefix) {
			return ""
		}
		return v.botPlacement(p.Player, r.IntN)
	}
	if !ok || p.Kind != engine.KindStep {
		return ""
	}
	b := newBotPlan(v.s, p.Player, r)
	b.diplomacy()
	b.build()
	b.buyStructures()
	b.makeShips()
	b.fire()
	b.actShips()
	return strings.Join(b.out, "\n")
}

// botPlan is one turn being planned.
type botPlan struct {
	s    *State
	me   string
	r    *rand.Rand
	t    *turn // the dry run Parse will make
	out  []string
	pos  map[int]Cell  // own ship → where it stands after the lines so far
	busy map[Cell]bool // cells own ships move into or new ships appear on
	// aims counts the attacks planned on each target (a ship number or a
	// cell), so that a target that may already be destroyed is not
	// attacked again and again.
	aims   map[string]int
	razed  map[Cell]bool
	claims map[string]int // empty planet → the own ship heading for it this turn
	// conquered are the planets this turn's lines conquer: a later line
	// must not treat one as another player's.
	conquered map[string]bool
	focus     *Planet // the enemy planet every warship goes for
	// spaceAt caches space(): the cells ships may ever cross.
	spaceAt []bool
	adj     [][]int32 // adjacency(): each cell's neighbours by index
	// massedOK caches massed(): enough warships near the focus to attack.
	massedSet, massedOK bool
}

func newBotPlan(s *State, me string, r *rand.Rand) *botPlan {
	b := &botPlan{s: s, me: me, r: r, t: newTurn(s, me, nil), pos: map[int]Cell{}, busy: map[Cell]bool{},
		aims: map[string]int{}, razed: map[Cell]bool{}, claims: map[string]int{}, conquered: map[string]bool{}}
	for _, sh := range s.Ships {
		if sh.Owner == me {
			b.pos[sh.ID] = sh.Cell
		}
	}
	b.focus = b.pickFocus()
	return b
}

// nearOwn reports whether c is within k cells of the edge of one of the
// bot's planets.
func (b *botPlan) nearOwn(c Cell, k int) bool {
	for _, pl := range b.s.Planets {
		if pl.Owner == b.me && dist(c, pl.Centre) <= pl.radius()+k {
			return true
		}
	}
	return false
}

// pickFocus chooses the defended enemy planet all warships attack together
// (one ship at a time would be shot down by its cannons): the one nearest
// to the bot's own planets, the least defended on a tie. An enemy planet
// nobody defends is no focus: one ship takes it, as an empty one.
func (b *botPlan) pickFocus() *Planet {
	var best *Planet
	bd := 1 << 30
	for _, pl := range b.s.Planets {
		if pl.Owner == "" || pl.Owner == b.me || !pl.defended() {
			continue
		}
		d := 1 << 30
		for _, own := range b.s.Planets {
			if own.Owner == b.me {
				d = min(d, dist(own.Centre, pl.Centre))
			}
		}
		if d == 1<<30 {
			d = dist(pl.Centre, Cell{})
		}
		d = d*10 + pl.count(CannonS) + 2*pl.count(Tower)
		if d < bd {
			best, bd = pl, d
		}
	}
	return best
}

// try checks one line by the dry run and keeps it if it passes.
func (b *botPlan) try(format string, args ...any) bool {
	o, pr := parseLine(fmt.Sprintf(format, args...))
	if pr != nil {
		return false
	}
	if b.t.do(&o, len(b.out)+1) != nil {
		return false
	}
	b.out = append(b.out, o.String())
	return true
}

func (b *botPlan) fac() Faction { return factions[b.s.Faction[b.me]] }

// diplomacy accepts some trade offers, and answers alliances only as
// issue 18's rule for every bot's agreements allows: allies share the
// victory (003-G22), so an alliance is an agreed winner. The bot declares
// an alliance only after the first quarter of the game, only while
// another survivor has more planets (the turn limit's score) than it has,
// and only when its declarations complete the shared victory at the end
// of its own turn (every other survivor has declared it and each other),
// so that no standing declaration of its can end the game after a turn
// that changed the score. It never resigns.
func (b *botPlan) diplomacy() {
	s := b.s
	for _, c := range s.Contracts {
		if c.To == b.me && !c.Accepted && !c.Cancelled && b.r.IntN(2) == 0 {
			b.try("ACCEPT %d", c.ID)
		}
	}
	if len(s.Seats) <= 2 || s.Round <= s.quarter() {
		return
	}
	others := b.others()
	behind := false
	for _, q := range others {
		if !contains(s.Allies[q], b.me) {
			return
		}
		for _, o := range others {
			if o != q && !contains(s.Allies[q], o) {
				return
			}
		}
		behind = behind || s.planetsOf(q) > s.planetsOf(b.me)
	}
	if !behind {
		return
	}
	for _, q := range others {
		if !contains(s.Allies[b.me], q) {
			b.try("ALLY %s", q)
		}
	}
}

// others lists the other players still in the game.
func (b *botPlan) others() []string {
	var out []string
	for _, q := range b.s.survivors() {
		if q != b.me {
			out = append(out, q)
		}
	}
	return out
}

// planetsOf counts p's planets: the score of the turn limit (003-F10).
func (s *State) planetsOf(p string) int {
	n := 0
	for _, pl := range s.Planets {
		if pl.Owner == p {
			n++
		}
	}
	return n
}

// quarter is the first quarter of the game, in rounds: a quarter of the
// turn limit, or with none, of 40 rounds (a long bot game).
func (s *State) quarter() int {
	if s.Limit > 0 {
		return (s.Limit + 3) / 4
	}
	return 10
}

// needs says which of metal and food the faction's ships are paid with.
func (b *botPlan) needs() (m, f bool) {
	p := b.fac().Ships[Small].Price
	return p.M > 0, p.F > 0
}

// build puts one structure on each own planet: a cannon when enemy
// warships are near and none stands; a spaceport first where none stands
// yet (on the home planet, or the first one); else a producer of the
// resource that holds its ship building back (for the Humans, who pay in
// Metal and Food alike, the one with the smaller income; the other only
// while the two stay close, since a surplus buys no ship); else, when the
// bank holds a huge ship's price and more, a tower.
func (b *botPlan) build() {
	s := b.s
	needM, needF := b.needs()
	income := s.income(b.me)
	ports := 0
	for _, pl := range s.Planets {
		if pl.Owner == b.me && pl.count(Spaceport) > 0 {
			ports++
		}
	}
	for _, pl := range s.Planets {
		if pl.Owner != b.me {
			continue
		}
		var want []string
		if b.threatened(pl) && pl.count(CannonS) < 1 {
			want = append(want, CannonS)
		}
		if pl.count(Spaceport) == 0 && (ports == 0 || pl.HomeOf == b.me) {
			want = append(want, Spaceport)
		}
		short, other := Furnace, Greenhouse
		switch {
		case needM && needF:
			if income.F < income.M || income.F == income.M && b.t.avail().F < b.t.avail().M {
				short, other = Greenhouse, Furnace
			}
		case needF:
			short, other = Greenhouse, ""
		default:
			other = ""
		}
		want = append(want, short)
		if other != "" {
			gap := income.M - income.F
			if other == Greenhouse {
				gap = -gap
			}
			if gap < 2 {
				want = append(want, other)
			}
		}
		if pl.count(Tower) < 1 && b.rich() {
			want = append(want, Tower)
		}
		if len(b.buildCells(pl, short)) == 0 {
			// The planet is full: a tile of a raw resource the bot has in
			// surplus makes room for the producer it lacks.
			if b.swapTile(pl, short) {
				continue
			}
		}
	kinds:
		for _, kind := range want {
			for _, c := range b.buildCells(pl, kind) {
				if b.try("BUILD %s AT %s", kind, c) {
					switch kind {
					case Spaceport:
						ports++
					case Furnace:
						income.M++
					case Greenhouse:
						income.F++
					}
					break kinds
				}
			}
		}
	}
}

// swapTile demolishes a tile whose resource the bot has in surplus (one
// its faction never spends, or 60 banked) and builds kind on its cell, if
// the planet allows kind and the bank pays for it. A demolished tile is
// gone for good, so only for a producer of what holds the fleet back.
func (b *botPlan) swapTile(pl *Planet, kind string) bool {
	price := b.fac().Builds[kind].Price
	if !allowed(pl.Biome, kind) || !b.t.avail().covers(price) || b.t.catBlocks(kind) != nil {
		return false
	}
	bank := b.t.avail()
	needM, needF := b.needs()
	fixed := b.fac().Builds[Spaceport].Price.add(b.fac().Builds[CannonS].Price)
	usesB, usesC := needF || fixed.B > 0, needM || fixed.C > 0
	surplus := func(tile string) bool {
		if tile == Forest {
			return !usesB || bank.B >= 60
		}
		return !usesC || bank.C >= 60
	}
	for _, st := range pl.Sites {
		if !isTile(st.Kind) || !surplus(st.Kind) {
			continue
		}
		if b.try("DEMOLISH %s", st.Cell) {
			return b.try("BUILD %s AT %s", kind, st.Cell)
		}
	}
	return false
}

// rich reports whether the bank holds, beyond a huge ship's price, what a
// tower costs: a defence that takes nothing from the fleet.
func (b *botPlan) rich() bool {
	huge := b.fac().Ships[Huge].Price
	tower := b.fac().Builds[Tower].Price
	return b.t.avail().covers(huge.add(tower))
}

// threatened reports whether an enemy warship is within six cells of pl.
func (b *botPlan) threatened(pl *Planet) bool {
	for _, sh := range b.s.Ships {
		if sh.Owner != b.me && sh.Class != Cargo && dist(sh.Cell, pl.Centre) <= pl.radius()+6 {
			return true
		}
	}
	return false
}

// buildCells lists where kind may go on pl: interior cells first (the
// border is kept for defences), and defences on the border nearest an
// enemy.
func (b *botPlan) buildCells(pl *Planet, kind string) []Cell {
	var inner, border []Cell
	for _, c := range hexCells(pl.Centre, pl.radius()) {
		if c == pl.Centre || pl.site(c) >= 0 {
			continue
		}
		if dist(c, pl.Centre) == pl.radius() {
			border = append(border, c)
		} else {
			inner = append(inner, c)
		}
	}
	if isDefence(kind) {
		if foe := b.nearestEnemyShip(pl.Centre); foe != nil {
			sortBy(border, func(c Cell) int { return dist(c, foe.Cell) })
		}
		return border
	}
	return append(inner, border...)
}

func (b *botPlan) nearestEnemyShip(c Cell) *Ship {
	var best *Ship
	for _, sh := range b.s.Ships {
		if sh.Owner != b.me && (best == nil || dist(sh.Cell, c) < dist(best.Cell, c)) {
			best = sh
		}
	}
	return best
}

// sortBy sorts cells by key, keeping the order of equal keys.
func sortBy(cs []Cell, key func(Cell) int) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && key(cs[j]) < key(cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// buyStructures buys, for an empty cargo ship touching an own planet with
// a spaceport, the space structure that feeds the fleet: a drilling rig
// (Cement and Metal) for a faction that pays in Metal, a habitat (Biomass
// and Food) for one that pays in Food; the Humans take the one for their
// scarcer resource. Only while a free asteroid is left to put it on and
// the bank keeps a warship's price besides. (Bought before ships are
// built, as Parse orders the lines.)
func (b *botPlan) buyStructures() {
	kind := Rig
	needM, needF := b.needs()
	if inc := b.s.income(b.me); needF && (!needM || inc.F < inc.M) {
		kind = Habitat
	}
	if b.freeAsteroids() == 0 {
		return
	}
	reserve := b.fac().Ships[Large].Price
	for _, sh := range b.s.Ships {
		if sh.Owner != b.me || sh.Class != Cargo || sh.Load != "" {
			continue
		}
		for _, pl := range b.s.Planets {
			if pl.Owner == b.me && pl.touches(sh.Cell) && b.t.avail().covers(reserve.add(b.fac().Builds[kind].Price)) {
				if b.try("BUY %s AT %s FOR %d", kind, pl.Name, sh.ID) {
					break
				}
			}
		}
	}
}

// cargoWanted reports whether a cargo ship should be built: free
// asteroids are left for rigs or habitats, the bot has no cargo ship, and
// the bank pays for the ship and a structure with a warship's price left.
func (b *botPlan) cargoWanted() bool {
	for _, sh := range b.s.Ships {
		if sh.Owner == b.me && sh.Class == Cargo {
			return false
		}
	}
	f := b.fac()
	need := f.Ships[Cargo].Price.add(f.Builds[Rig].Price.add(f.Builds[Habitat].Price)).add(f.Ships[Large].Price)
	return b.freeAsteroids() > 0 && b.t.avail().covers(need)
}

// freeAsteroids counts the asteroids with no structure on them.
func (b *botPlan) freeAsteroids() int {
	n := 0
	for _, a := range b.s.Asteroids {
		if b.s.structAt(a) == nil {
			n++
		}
	}
	return n
}

// makeShips builds, at each own spaceport: a small ship while empty planets
// are left to claim and few small ships are out; else as many large ships
// as it can pay for (up to four; it saves for them, since a medium one
// does little against a cannon), from turn 26 a huge one first or medium
// ones if that is all it can pay; and now and then a cargo ship.
func (b *botPlan) makeShips() {
	s := b.s
	small, empty := 0, 0
	for _, sh := range s.Ships {
		if sh.Owner == b.me && sh.Class == Small {
			small++
		}
	}
	for _, pl := range s.Planets {
		if pl.Owner == "" {
			empty++
		}
	}
	for _, pl := range s.Planets {
		if pl.Owner != b.me || pl.count(Spaceport) == 0 {
			continue
		}
		var order []string
		switch {
		case empty > 0 && small < min(empty, 2):
			order = []string{Small}
		case b.cargoWanted():
			order = []string{Cargo}
		case s.Round > 25:
			order = []string{Huge, Large, Medium}
		default:
			order = []string{Large}
		}
	classes:
		for _, cls := range order {
			for n := 4; n >= 1; n-- {
				if cls == Small || cls == Cargo || cls == Huge {
					n = 1
				}
				if b.try("MAKE %d %s AT %s", n, cls, pl.Name) {
					for ; n > 0; n-- {
						b.spawn(pl)
					}
					if cls == Small {
						small++
					}
					break classes
				}
			}
		}
	}
}

// spawn marks where a ship built at pl this turn will appear, as
// makeShips will place it.
func (b *botPlan) spawn(pl *Planet) {
	var start []Cell
	for _, c := range hexCells(pl.Centre, pl.radius()+1) {
		if pl.touches(c) {
			start = append(start, c)
		}
	}
	seen := map[Cell]bool{}
	queue := append([]Cell(nil), start...)
	for _, c := range start {
		seen[c] = true
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if b.s.free(c) && !b.busy[c] {
			b.busy[c] = true
			return
		}
		for _, n := range b.s.Grid.neighbours(c) {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
}

// fire shoots each own defence and station at adjacent enemy ships,
// spreading the shots over the targets.
func (b *botPlan) fire() {
	s := b.s
	var shooters []Cell
	for _, pl := range s.Planets {
		if pl.Owner != b.me {
			continue
		}
		for _, st := range pl.Sites {
			if isDefence(st.Kind) {
				shooters = append(shooters, st.Cell)
			}
		}
	}
	for _, st := range s.Structs {
		if st.Owner == b.me {
			shooters = append(shooters, st.Cell)
		}
	}
	for _, c := range shooters {
		for shot := 0; shot < 2; shot++ {
			if tgt := b.adjacentFoeShip(c, 99); tgt != nil {
				if b.try("FIRE %s AT %d", c, tgt.ID) {
					b.aims[fmt.Sprint(tgt.ID)]++
				}
			}
		}
	}
}

// adjacentFoeShip is an enemy ship next to c whose shield die can beat,
// the least aimed at first.
func (b *botPlan) adjacentFoeShip(c Cell, die int) *Ship {
	var best *Ship
	for _, n := range b.s.Grid.neighbours(c) {
		sh := b.s.shipAt(n)
		if sh == nil || sh.Owner == b.me {
			continue
		}
		if u := b.s.unit(sh); killChance(die, u.Die, u.Shield) < 0.2 {
			continue // a duel it can hardly win would hold it here for ever
		}
		if b.aims[fmt.Sprint(sh.ID)] >= 2 {
			continue
		}
		if best == nil || b.aims[fmt.Sprint(sh.ID)] < b.aims[fmt.Sprint(best.ID)] {
			best = sh
		}
	}
	return best
}

// killChance is the chance that an attack with die destroys a target
// defending with def and shield (003-R8: higher than both; ties fail).
func killChance(die, def, shield int) float64 {
	if die <= 0 {
		return 0
	}
	win := 0 // attack rolls × defence rolls that destroy
	for a := shield + 1; a <= die; a++ {
		if def == 0 {
			win++ // no defence die: the shield alone (asteroids)
		} else {
			win += min(a-1, def)
		}
	}
	if def == 0 {
		return float64(win) / float64(die)
	}
	return float64(win) / float64(die*def)
}

// actShips plans the actions of every own ship, in the order of their
// numbers (the order the lines will run in).
func (b *botPlan) actShips() {
	for _, sh := range b.s.Ships {
		if sh.Owner == b.me && sh.ID < b.t.firstNew {
			limit := 2
			if sh.Class == Huge {
				limit = 4
			}
			for a := 0; a < limit; a++ {
				if !b.shipAction(sh) {
					break
				}
			}
		}
	}
}

// shipAction plans one action of sh: fight what is next to it, take the
// planet it touches, or move towards its goal.
func (b *botPlan) shipAction(sh *Ship) bool {
	s := b.s
	pos := b.pos[sh.ID]
	u := s.unit(sh)
	huge := sh.Class == Huge
	if huge && s.HugeMode != "b" && b.t.moves[sh.ID] > 0 {
		return false // reading a: a huge ship that moved does nothing else
	}
	if sh.Class != Cargo {
		if tgt := b.adjacentFoeShip(pos, u.Die); tgt != nil {
			if b.try("SHIP %d ATTACK %d", sh.ID, tgt.ID) {
				b.aims[fmt.Sprint(tgt.ID)]++
				return true
			}
		}
	}
	{
		for _, pl := range s.Planets {
			if pl.Owner == b.me || !pl.touches(pos) {
				continue
			}
			if b.takePlanet(sh, pl, pos) {
				return true
			}
		}
	}
	if sh.Class != Cargo {
		for _, n := range s.Grid.neighbours(pos) {
			st := s.structAt(n)
			key := n.String()
			if st != nil && st.Owner != b.me && factions[s.Faction[st.Owner]].Builds[st.Kind].Shield < u.Die && b.aims[key] < 3 {
				if b.try("SHIP %d ATTACK %s", sh.ID, n) {
					b.aims[key]++
					return true
				}
			}
		}
	}
	if sh.Class == Cargo && pos == sh.Cell && b.cargoAction(sh) {
		return true
	}
	if huge && (b.t.acts[sh.ID] > 0 && s.HugeMode != "b" || s.HugeMode == "b" && b.t.moves[sh.ID] > 0) {
		return false
	}
	if !huge && b.t.moves[sh.ID] >= 2 {
		return false
	}
	return b.move(sh)
}

// takePlanet fights for pl, which sh touches from pos: a defence next to
// it that it can beat, then (no defence left) an ordinary structure to
// raze, then (nothing left) the conquest.
func (b *botPlan) takePlanet(sh *Ship, pl *Planet, pos Cell) bool {
	s := b.s
	u := s.unit(sh)
	if pl.Owner != "" {
		defended := false
		for _, st := range pl.Sites {
			if !isDefence(st.Kind) {
				continue
			}
			defended = true
			key := st.Cell.String()
			if sh.Class != Cargo && dist(st.Cell, pos) == 1 && factions[s.Faction[pl.Owner]].Builds[st.Kind].Shield < u.Die && b.aims[key] < 3 {
				if b.try("SHIP %d ATTACK %s", sh.ID, st.Cell) {
					b.aims[key]++
					return true
				}
			}
		}
		if defended {
			return false
		}
		for _, st := range pl.Sites {
			if isTile(st.Kind) || b.razed[st.Cell] {
				continue
			}
			if sh.Class == Cargo {
				return false
			}
			if b.try("SHIP %d RAZE %s", sh.ID, st.Cell) {
				b.razed[st.Cell] = true
				return true
			}
			return false
		}
	}
	if b.try("SHIP %d CONQUER %s", sh.ID, pl.Name) {
		b.conquered[pl.Name] = true
		return true
	}
	return false
}

// goal is where a ship heads: the cells from which it can act on its
// target.
type goal struct {
	planet string
	cells  []Cell
}

// goals lists what sh might head for: empty planets (one ship each),
// enemy planets (for ships that can beat a cannon, or when undefended),
// and enemy ships and space structures it can beat.
func (b *botPlan) goals(sh *Ship) []goal {
	s := b.s
	u := s.unit(sh)
	var out []goal
	hasPlanet := map[string]bool{}
	for _, pl := range s.Planets {
		hasPlanet[pl.Owner] = true
	}
	for _, pl := range s.Planets {
		if pl.Owner == b.me {
			continue
		}
		defended := pl.Owner != "" && pl.defended()
		if id, ok := b.claims[pl.Name]; ok && !defended && id != sh.ID {
			continue // one ship takes a planet nobody defends
		}
		var cells []Cell
		if defended && (sh.Class == Cargo || u.Die <= factions[s.Faction[pl.Owner]].Builds[CannonS].Shield) {
			continue
		}
		if pl.Owner != "" && sh.Class == Cargo {
			continue
		}
		if defended && b.focus != nil && pl != b.focus && u.Die > 4 {
			continue // warships fight together
		}
		if defended && pl == b.focus && !b.massed() {
			// Not enough warships near it yet: wait out of the defences'
			// reach, two cells beyond the planet's edge, for the rest.
			var rally []Cell
			for _, c := range hexCells(pl.Centre, pl.radius()+3) {
				if dist(c, pl.Centre) == pl.radius()+3 {
					rally = append(rally, c)
				}
			}
			out = append(out, goal{cells: rally})
			continue
		}
		for _, c := range hexCells(pl.Centre, pl.radius()+1) {
			if !pl.touches(c) {
				continue
			}
			if defended {
				near := false
				for _, st := range pl.Sites {
					near = near || (isDefence(st.Kind) && dist(st.Cell, c) == 1)
				}
				if !near {
					continue
				}
			}
			cells = append(cells, c)
		}
		out = append(out, goal{planet: pl.Name, cells: cells})
	}
	if sh.Class == Cargo {
		if sh.Load == Rig || sh.Load == Habitat {
			// Carrying a structure: to a free asteroid, to put it there.
			out = out[:0]
			for _, a := range s.Asteroids {
				if s.structAt(a) == nil {
					out = append(out, goal{cells: s.Grid.neighbours(a)})
				}
			}
		}
		return out
	}
	// Ships and structures: those of players with no planet (so that the
	// last of them is hunted down), those that come near the bot's planets
	// (raiders that would take an undefended one), or anything when no
	// planet is a goal.
	for _, o := range s.Ships {
		if o.Owner != b.me && (!hasPlanet[o.Owner] || len(out) == 0 || b.nearOwn(o.Cell, 4)) && s.unit(o).Shield < u.Die {
			out = append(out, goal{cells: s.Grid.neighbours(o.Cell)})
		}
	}
	for _, st := range s.Structs {
		if st.Owner != b.me && (!hasPlanet[st.Owner] || len(out) == 0) && factions[s.Faction[st.Owner]].Builds[st.Kind].Shield < u.Die {
			out = append(out, goal{cells: s.Grid.neighbours(st.Cell)})
		}
	}
	return out
}

// massed reports whether enough warships that can beat a cannon are near
// the focus planet to attack it: two for each cannon and three for each
// tower, and two more. One at a time, they would be shot down as they come.
func (b *botPlan) massed() bool {
	if b.massedSet {
		return b.massedOK
	}
	b.massedSet = true
	f := b.focus
	shield := factions[b.s.Faction[f.Owner]].Builds[CannonS].Shield
	need := 2*f.count(CannonS) + 3*f.count(Tower) + 2
	have := 0
	for _, sh := range b.s.Ships {
		if sh.Owner == b.me && sh.Class != Cargo && b.s.unit(sh).Die > shield && dist(sh.Cell, f.Centre) <= f.radius()+4 {
			have++
			if sh.Class == Huge {
				have += 3
			}
		}
	}
	b.massedOK = have >= need
	return b.massedOK
}

// space reports, for every cell (row by row), whether a ship could ever
// pass through it: on the board and no planet, structure or asteroid (ships
// move, so they are not counted). It is worked out once a turn.
func (b *botPlan) space() []bool {
	if b.spaceAt == nil {
		g := b.s.Grid
		b.spaceAt = make([]bool, g.W()*g.H())
		for y := 0; y < g.H(); y++ {
			for x := 0; x < g.W(); x++ {
				c := Cell{x, y}
				b.spaceAt[y*g.W()+x] = b.s.planetAt(c) == nil && b.s.structAt(c) == nil && !b.s.asteroidAt(c)
			}
		}
	}
	return b.spaceAt
}

// free reports whether sh may pass through or stop on c this turn: free on
// the board as it is (what the dry run checks) and not taken by an own
// ship's earlier move or a new ship.
func (b *botPlan) free(c Cell) bool { return b.s.free(c) && !b.busy[c] }

// distances is a breadth-first search through space from the cells from:
// the number of steps to each cell (row by row), −1 where none leads.
func (b *botPlan) distances(from []Cell) []int {
	g := b.s.Grid
	w := g.W()
	space := b.space()
	adj := b.adjacency()
	d := make([]int, len(space))
	for i := range d {
		d[i] = -1
	}
	queue := make([]int32, 0, len(space))
	for _, c := range from {
		if k := c.Y*w + c.X; g.in(c) && space[k] && d[k] < 0 {
			d[k] = 0
			queue = append(queue, int32(k))
		}
	}
	for i := 0; i < len(queue); i++ {
		k := queue[i]
		for _, n := range adj[k] {
			if d[n] < 0 && space[n] {
				d[n] = d[k] + 1
				queue = append(queue, n)
			}
		}
	}
	return d
}

// adjacency lists each cell's neighbours by index (row by row), worked
// out once a turn: the searches of every ship's every move use it.
func (b *botPlan) adjacency() [][]int32 {
	if b.adj == nil {
		g := b.s.Grid
		w := g.W()
		b.adj = make([][]int32, w*g.H())
		for y := 0; y < g.H(); y++ {
			for x := 0; x < w; x++ {
				for _, n := range g.neighbours(Cell{x, y}) {
					b.adj[y*w+x] = append(b.adj[y*w+x], int32(n.Y*w+n.X))
				}
			}
		}
	}
	return b.adj
}

// move takes sh one move (up to its speed through cells free this turn)
// towards the nearest goal.
func (b *botPlan) move(sh *Ship) bool {
	pos := b.pos[sh.ID]
	w := b.s.Grid.W()
	at := func(d []int, c Cell) int {
		if !b.s.Grid.in(c) {
			return -1
		}
		return d[c.Y*w+c.X]
	}
	from := b.distances([]Cell{pos})
	var best *goal
	bd := 1 << 30
	gs := b.goals(sh)
	for i := range gs {
		for _, c := range gs[i].cells {
			if d := at(from, c); d >= 0 && d < bd {
				best, bd = &gs[i], d
			}
		}
	}
	if best == nil || bd == 0 {
		return false
	}
	to := b.distances(best.cells)
	// The cells this ship can reach this move, through free cells only.
	speed := b.s.unit(sh).Speed
	reach := map[Cell]bool{}
	frontier := []Cell{pos}
	seen := map[Cell]bool{pos: true}
	for k := 0; k < speed; k++ {
		var next []Cell
		for _, c := range frontier {
			for _, n := range b.s.Grid.neighbours(c) {
				if !seen[n] && b.free(n) {
					seen[n] = true
					reach[n] = true
					next = append(next, n)
				}
			}
		}
		frontier = next
	}
	dest, dd := pos, at(to, pos)
	if dd < 0 {
		dd = 1 << 30
	}
	for _, c := range hexCells(pos, speed) {
		if d := at(to, c); d >= 0 && reach[c] && d < dd {
			dest, dd = c, d
		}
	}
	if dest == pos {
		return false
	}
	if !b.try("SHIP %d MOVE %s", sh.ID, dest) {
		return false
	}
	if best.planet != "" {
		if _, ok := b.claims[best.planet]; !ok {
			b.claims[best.planet] = sh.ID
		}
	}
	b.busy[dest] = true
	b.pos[sh.ID] = dest
	return true
}

// cargoAction deploys, delivers, offers or loads when the cargo ship can
// (so that bot games exercise trade and the secrecy of manifests).
func (b *botPlan) cargoAction(sh *Ship) bool {
	s := b.s
	for _, n := range s.Grid.neighbours(sh.Cell) {
		if !b.busy[n] && b.try("SHIP %d DEPLOY %s", sh.ID, n) {
			b.busy[n] = true
			return true
		}
	}
	for _, pl := range s.Planets {
		if !pl.touches(sh.Cell) {
			continue
		}
		if pl.Owner != "" && pl.Owner != sh.Owner && !sh.Cargo.zero() && b.try("SHIP %d UNLOAD %s %s", sh.ID, pl.Name, sh.Cargo) {
			return true
		}
		if pl.Owner != "" && pl.Owner != sh.Owner && b.r.IntN(4) == 0 {
			b.try("OFFER %s SHIP %d GIVE 1B GET 1C TURNS %d", pl.Owner, sh.ID, 1+b.r.IntN(3))
		}
		if pl.Owner != "" && pl.Owner != sh.Owner && !b.conquered[pl.Name] {
			for _, c := range s.Contracts {
				if c.Accepted && !c.Cancelled && c.Ship == sh.ID && b.try("SHIP %d LOAD %s 1C", sh.ID, pl.Name) {
					return true
				}
			}
		}
		if pl.Owner == sh.Owner {
			// What an accepted contract says this side gives, to deliver.
			for _, c := range s.Contracts {
				if !c.Accepted || c.Cancelled || c.Ship != sh.ID {
					continue
				}
				owed := c.Give.sub(c.Loaded)
				if c.To == b.me {
					owed = c.Get.sub(c.LoadedTo)
				}
				if (owed.B > 0 || owed.C > 0 || owed.F > 0 || owed.M > 0) && owed.B >= 0 && owed.C >= 0 && owed.F >= 0 && owed.M >= 0 &&
					b.try("SHIP %d LOAD %s %s", sh.ID, pl.Name, owed) {
					return true
				}
			}
		}
	}
	return false
}
