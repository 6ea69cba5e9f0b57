// Package burning is Burning Planets (seed 003): three asymmetric factions
// on a generated hex galaxy, taking sequential turns of catastrophe, income,
// building, ship building and ship actions, with cargo kept secret from all
// but its owner, and every text in English or Russian.
package burning

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// Ruleset returns Burning Planets.
func Ruleset() engine.Ruleset { return ruleset{} }

type ruleset struct{}

var options = []engine.Option{
	{Name: "factions", Default: "", Help: "factions in the order players are given, comma-separated " +
		"(humans, digitals, xenos; the same faction may be taken twice); empty: humans, digitals, xenos in turn"},
	{Name: "lang", Default: langEN, Choices: []string{langEN, langRU}, Help: "starting language of every player's reports; each player changes theirs with LANG"},
	{Name: "huge", Default: "a", Choices: []string{"a", "b"}, Help: "reading of N9 for huge ships: a = one move or up to four other actions; b = four actions, at most one a move"},
	{Name: "asteroid_die", Default: "6", Choices: []string{"4", "6", "8"}, Help: "the modifier die added to the section count for the number of asteroids"},
	{Name: "banks", Default: "hidden", Choices: []string{"hidden", "public"}, Help: "whether players see each other's resource banks (public banks would betray every cargo load)"},
	{Name: "home_placement", Default: "dice", Choices: []string{"dice", "player"}, Help: "who places the tiles and the starting cannon of each home planet: " +
		"dice = the server by dice; player = each player, in a setup prompt whose default (nothing sent by the deadline) is the dice"},
	{Name: "asteroid_placement", Default: "dice", Choices: []string{"dice", "player"}, Help: "who picks each asteroid's cell once its section is rolled: " +
		"dice = the server by a die; player = the player to the roller's left, in a setup prompt whose default is the die"},
	{Name: "turns", Default: "0", Help: "turn limit; 0 = none. At the limit the players with most planets share the win"},
}

func (ruleset) Info() engine.Info {
	return engine.Info{
		Version: 3, // see engine.Info.Version: raise it with a rule change
		Name:    "burning", Title: "Burning Planets", MinPlayers: 2, MaxPlayers: 6, Options: options,
		Summary:   summary,
		OrderHelp: orderHelp,
	}
}

// summary is Info.Summary (translated in translate.go).
const summary = "Humans, Digitals and Xenos fight over a generated hex galaxy. On your turn the catastrophe die " +
	"is rolled, your planets produce, you build (one structure per planet), build ships, and act: each " +
	"ship has two actions (move up to its speed, or attack an adjacent target by opposed dice that must " +
	"beat the target's die and its shield). Conquer empty planets with a monolith, strip enemy planets " +
	"of their structures and take them. Cargo ships carry resources and space structures, hidden from " +
	"everyone but you. Destroy every enemy, or end as allies."

const orderHelp = `Orders, one a line, in English or Russian (cells like K6; ships by number).
Приказы по одному в строке, по-английски или по-русски (клетки как K6).
  BUILD CANNON AT K6             СТРОИТЬ ПУШКА В K6
      furnace, greenhouse, spaceport (anywhere), cannon, tower (border)
      домна, теплица, космодром (где угодно), пушка, башня (на краю)
  DEMOLISH K6                    СНЕСТИ K6
  BUY RIG AT Arda FOR 12         КУПИТЬ БУРОВАЯ НА Arda ДЛЯ 12
      rig, habitat or station, onto your cargo ship touching the planet
      буровая, местообитание, станция: на ваш грузовой корабль у планеты
  MAKE 2 SMALL AT Arda           СОЗДАТЬ 2 МАЛЫЙ У Arda
      small medium large huge cargo (or the ship's name), at a planet
      with your spaceport or at the cell of your orbital station
      малый средний большой огромный грузовой (или имя корабля), у планеты
      с вашим космодромом или в клетке вашей орбитальной станции
  SHIP 12 MOVE K6                КОРАБЛЬ 12 ЛЕТЕТЬ K6
  SHIP 12 ATTACK 15              КОРАБЛЬ 12 АТАКОВАТЬ 15
      a ship number or a cell (defence, station, rig, habitat, asteroid)
      номер корабля или клетка (оборона, станция, буровая, астероид)
  SHIP 12 ATTACK ASTEROID K6     КОРАБЛЬ 12 АТАКОВАТЬ АСТЕРОИД K6
  SHIP 12 RAZE K6                КОРАБЛЬ 12 РАЗРУШИТЬ K6
      a furnace, greenhouse or spaceport of a planet with no defences
      домна, теплица или космодром планеты без обороны
  SHIP 12 CONQUER Arda           КОРАБЛЬ 12 ЗАХВАТИТЬ Arda
  SHIP 12 LOAD Arda 10B 5C       КОРАБЛЬ 12 ЗАГРУЗИТЬ Arda 10B 5C
  SHIP 12 UNLOAD Arda 10B        КОРАБЛЬ 12 ВЫГРУЗИТЬ Arda 10B
  SHIP 12 DEPLOY K6              КОРАБЛЬ 12 УСТАНОВИТЬ K6
  SHIP 12 PICKUP K6              КОРАБЛЬ 12 ЗАБРАТЬ K6
  FIRE K6 AT 12                  ОГОНЬ K6 В 12
      cannons, towers, stations twice a turn; rigs, habitats once
      пушки, башни, станции дважды за ход; буровые, местообитания раз
  BOMBARD Arda                   БОМБИТЬ Arda
      with six of your huge ships on its six vertices
      шестью вашими огромными кораблями на шести вершинах
Also at any time:                В любое время:
  LANG RU | LANG EN              ЯЗЫК RU
  ALLY bob | BREAK bob           СОЮЗ bob | РАЗРЫВ bob
      (only these three while the game is being set up)
      (пока идёт подготовка игры, только эти три)
  OFFER bob SHIP 12 GIVE 20B GET 10M TURNS 5
  ПРЕДЛОЖИТЬ bob КОРАБЛЬ 12 ОТДАТЬ 20B ПОЛУЧИТЬ 10M ХОДОВ 5
      TURNS 5 (optional): the contract lapses 5 turns from now
      ХОДОВ 5 (необязательно): через 5 ходов договор истекает
  ACCEPT 3 | CANCEL 3            ПРИНЯТЬ 3 | ОТМЕНИТЬ 3
  RESIGN                         СДАТЬСЯ
  any turn orders, sent before your turn, run when it opens; CLEAR forgets
  приказы хода, присланные заранее, выполнятся в начале вашего хода;
  ОЧИСТИТЬ их забывает
At the start, with option asteroid_placement=player (when asked):
В начале игры, с опцией asteroid_placement=player (когда спросят):
  ASTEROID K6 | AUTO             АСТЕРОИД K6 | АВТО
At the start, with option home_placement=player (your home planet):
В начале игры, с опцией home_placement=player (ваша родная планета):
  TILE FOREST AT K6 | TILE MOUNTAIN AT K6   РЕСУРС ЛЕС В K6 | РЕСУРС ГОРА В K6
      interior cells while any is free; на внутренние клетки, пока есть
  BUILD CANNON AT K6             СТРОИТЬ ПУШКА В K6   (border / край)
  AUTO                           АВТО   (the dice place the rest / остальное
                                         разместят кубики)
Resources: B biomass, C cement, F food, M metal (Cyrillic В, С, М read as
B, C, M). Each ship has 2 actions, one after the other.
Ресурсы: Б биомасса, Ц цемент, Е еда, М металл (или B C F M). У каждого
корабля 2 действия, одно за другим.`

// Planet is one generated planet with its tiles and structures.
type Planet struct {
	Name    string `json:"name"`
	Section int    `json:"section"`
	Centre  Cell   `json:"centre"`
	Size    int    `json:"size"` // 1 small, 2 medium, 3 large
	Biome   string `json:"biome"`
	Owner   string `json:"owner,omitempty"` // "" uninhabited; the monolith stands at Centre otherwise
	HomeOf  string `json:"home_of,omitempty"`
	Sites   []Site `json:"sites"`
	Dice    string `json:"dice"` // the setup rolls that made it, for the status table
}

// Site is a tile or a structure on one planet cell.
type Site struct {
	Cell Cell   `json:"cell"`
	Kind string `json:"kind"`
}

func (p *Planet) radius() int { return radius(p.Size) }
func (p *Planet) has(c Cell) bool {
	return dist(p.Centre, c) <= p.radius()
}
func (p *Planet) site(c Cell) int {
	for i, s := range p.Sites {
		if s.Cell == c {
			return i
		}
	}
	return -1
}
func (p *Planet) defended() bool {
	for _, s := range p.Sites {
		if isDefence(s.Kind) {
			return true
		}
	}
	return false
}
func (p *Planet) count(kind string) int {
	n := 0
	for _, s := range p.Sites {
		if s.Kind == kind {
			n++
		}
	}
	return n
}

// touches reports whether a space cell c is next to the planet.
func (p *Planet) touches(c Cell) bool { return dist(p.Centre, c) == p.radius()+1 }

// Ship is one ship. Cargo and Load are the secret manifest (003-H1): only
// the owner's view shows them.
type Ship struct {
	ID    int    `json:"id"`
	Owner string `json:"owner"`
	Class string `json:"class"`
	Cell  Cell   `json:"cell"`
	Cargo Res    `json:"cargo"`
	Load  string `json:"load,omitempty"` // a space structure carried, bought or picked up
}

// Struct is a space structure: a drilling rig or habitat on an asteroid,
// or an orbital station in space.
type Struct struct {
	Kind  string `json:"kind"`
	Owner string `json:"owner"`
	Cell  Cell   `json:"cell"`
}

// Contract is a trade agreement between two players (003-B13, 003-H2):
// From gives Give, To gives Get, carried by cargo ship Ship. It is known to
// the two parties only. Once accepted, the ship may load at either party's
// planets what that party gives (003-G19).
type Contract struct {
	ID       int    `json:"id"`
	From     string `json:"from"`
	To       string `json:"to"`
	Ship     int    `json:"ship"`
	Give     Res    `json:"give"`
	Get      Res    `json:"get"`
	Accepted bool   `json:"accepted"`
	// Cancelled: withdrawn or ended by either party, or lapsed with its
	// ship or a party; it authorises nothing more.
	Cancelled bool `json:"cancelled,omitempty"`
	// Expires is the turn at whose start the contract lapses (OFFER …
	// TURNS n: the turn of the offer + n); 0: it never lapses.
	Expires  int `json:"expires,omitempty"`
	Loaded   Res `json:"loaded_from"` // what the ship took from From
	LoadedTo Res `json:"loaded_to"`   // what the ship took from To
	// Home is what the ship's owner has announced receiving at home of
	// what the ship took from the partner (each receipt is said aloud).
	Home Res `json:"home,omitempty"`
}

// State is a game of Burning Planets.
type State struct {
	Grid      Grid                `json:"grid"`
	Seats     []string            `json:"seats"` // turn order, rolled at setup (003-R9)
	Faction   map[string]string   `json:"faction"`
	Lang      map[string]string   `json:"lang"`
	Bank      map[string]Res      `json:"bank"`
	Allies    map[string][]string `json:"allies"` // declared, sorted; an alliance is mutual declarations
	Out       []string            `json:"out,omitempty"`
	Planets   []*Planet           `json:"planets"`
	Asteroids []Cell              `json:"asteroids"`
	Ships     []*Ship             `json:"ships"`
	Structs   []*Struct           `json:"structs"`
	NextShip  int                 `json:"next_ship"`
	Contracts []*Contract         `json:"contracts"`
	// Advance holds orders sent ahead of a player's turn (003(i)); they
	// run, checked line by line, when that turn opens.
	Advance map[string][]string `json:"advance,omitempty"`
	// Placing holds, while the home planets are being placed (option
	// home_placement=player), what each player has still to place.
	Placing map[string]*HomeSetup `json:"placing,omitempty"`
	// AstPick is the asteroid whose cell a player is choosing (option
	// asteroid_placement=player); AstCount how many the dice asked for.
	AstPick   *AsteroidPick `json:"ast_pick,omitempty"`
	AstCount  int           `json:"ast_count,omitempty"`
	Round     int           `json:"round"`
	Active    int           `json:"active"` // index into Seats
	Cat       int           `json:"cat"`    // the active player's catastrophe roll
	HugeMode  string        `json:"huge_mode"`
	Hidden    bool          `json:"hidden_banks"`
	Limit     int           `json:"turn_limit"`
	SetupDice []string      `json:"setup_dice"`
	Done      bool          `json:"done"`
	Winners   []string      `json:"winners,omitempty"`
	EndText   string        `json:"end_text,omitempty"`
	// Tells is set in games set up under rules version 3 or later, which
	// keep the Story of their last step for its picture (story.go).
	Tells bool        `json:"tells,omitempty"`
	Story []draw.Told `json:"story,omitempty"`
	// Msgs: the game's events are messages (lang.Msg), each written in
	// its reader's language when it is read. Set in games whose setup
	// records its rules' version (engine.Setup.RulesVersion): a game set up
	// before had its events written in each reader's language when the
	// step was resolved, and replays so (tell). Not an option, which
	// would change every new game's dice (options are their inputs).
	Msgs bool `json:"msgs,omitempty"`

	events []engine.Event
}

var planetNames = []string{"Arda", "Borvik", "Cetra", "Dunmor", "Elys", "Fenn", "Gorra", "Halo", "Ixion", "Jorun", "Kell", "Lumo"}

func (ruleset) NewState(su engine.Setup, d *dice.Dice) (engine.State, error) {
	n := len(su.Players)
	if n < 2 || n > 6 {
		return nil, fmt.Errorf("burning planets needs 2 to 6 players, not %d", n)
	}
	s := &State{Grid: gridFor(n), Faction: map[string]string{}, Lang: map[string]string{}, Bank: map[string]Res{},
		Allies: map[string][]string{}, NextShip: 1, Round: 1, HugeMode: su.Options["huge"], Hidden: su.Options["banks"] != "public",
		Tells: su.RulesVersion >= storySince, Msgs: su.RulesVersion > 0}
	if s.HugeMode == "" {
		s.HugeMode = "a"
	}
	lim, err := strconv.Atoi(strings.TrimSpace(orDefault(su.Options["turns"], "0")))
	if err != nil || lim < 0 {
		return nil, fmt.Errorf("option turns must be a whole number of turns (0 = no limit), not %q", su.Options["turns"])
	}
	s.Limit = lim
	var given []string
	if f := strings.TrimSpace(su.Options["factions"]); f != "" {
		given = strings.Split(f, ",")
		if len(given) != n {
			return nil, fmt.Errorf("option factions names %s for %s", lang.N(len(given), "faction", "factions"), lang.N(n, "player", "players"))
		}
	}
	defLang := orDefault(su.Options["lang"], langEN)
	for i, p := range su.Players {
		f := factionNames[i%3]
		if given != nil {
			f = strings.ToLower(strings.TrimSpace(given[i]))
			if _, ok := factions[f]; !ok {
				return nil, fmt.Errorf("option factions: %q is not humans, digitals or xenos", given[i])
			}
		}
		s.Faction[p] = f
		s.Lang[p] = defLang
		if l := su.Languages[p]; l == langEN || l == langRU {
			s.Lang[p] = l // the player's own choice, before the game
		}
		s.Allies[p] = []string{}
	}
	s.Seats = append([]string(nil), su.Players...)
	d.ShuffleMsg(n, lang.M("seat order"), func(i, j int) { s.Seats[i], s.Seats[j] = s.Seats[j], s.Seats[i] })
	manual := su.Options["home_placement"] == "player"
	if manual {
		s.Placing = map[string]*HomeSetup{}
	}
	for _, p := range s.Seats {
		s.genPlanet(d, p, true)
		s.genPlanet(d, p, false)
	}
	mod := 6
	if m, err := strconv.Atoi(su.Options["asteroid_die"]); err == nil && m > 0 {
		mod = m
	}
	if su.Options["asteroid_placement"] == "player" {
		m := d.RollMsg(mod, lang.M("asteroid modifier die"))
		s.AstCount = s.Grid.Sections() + m
		s.SetupDice = append(s.SetupDice, fmt.Sprintf("asteroids: %d sections + d%d=%d = %d", s.Grid.Sections(), mod, m, s.AstCount))
		s.nextAsteroid(d, 1)
	} else {
		s.genAsteroids(d, mod)
	}
	if s.AstPick == nil && !manual {
		s.startTurn(d)
	}
	return s, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// genPlanet follows "Planet generation": position, size, biome, resources.
func (s *State) genPlanet(d *dice.Dice, player string, home bool) {
	name := planetNames[len(s.Planets)]
	what := lang.M("second planet of %s", player)
	if home {
		what = lang.M("home planet of %s", player)
	}
	secs := s.Grid.Sections()
	var sec int
	var rolls []string
	for {
		sec = d.RollMsg(secs, lang.M("section of %s (%s)", name, what))
		rolls = append(rolls, fmt.Sprintf("section d%d=%d", secs, sec))
		if s.planetIn(sec) == nil {
			break // a conflicting roll is repeated (RULE)
		}
	}
	sz := d.RollMsg(4, lang.M("size of %s", name))
	size := map[int]int{1: 1, 2: 1, 3: 2, 4: 3}[sz]
	rolls = append(rolls, fmt.Sprintf("size d4=%d", sz))
	p := &Planet{Name: name, Section: sec, Centre: s.Grid.centre(sec), Size: size}
	if home {
		p.Biome = factions[s.Faction[player]].Home
		p.Owner, p.HomeOf = player, player
	} else {
		b := d.RollMsg(6, lang.M("biome of %s", name))
		rolls = append(rolls, fmt.Sprintf("biome d6=%d", b))
		p.Biome = []string{Fair, Harsh, Water}[(b-1)/2]
	}
	var forests, mountains int
	switch {
	case home && p.Biome == Fair:
		forests = d.RollMsg(4, lang.M("forests of %s", name))
		rolls = append(rolls, fmt.Sprintf("forests d4=%d", forests))
		mountains = 5 - forests
	case home && p.Biome == Harsh:
		mountains = 5 // one kind: no roll (N16)
	case home:
		forests = 5
	default:
		die := []int{0, 4, 6, 8}[size]
		roll := func(kind string) int {
			purpose := lang.M("forests of %s", name)
			if kind == "mountains" {
				purpose = lang.M("mountains of %s", name)
			}
			v := d.RollMsg(die, purpose)
			rolls = append(rolls, fmt.Sprintf("%s d%d=%d", kind, die, v))
			return v
		}
		switch p.Biome {
		case Fair:
			forests, mountains = roll("forests"), roll("mountains")
		case Harsh:
			mountains = roll("mountains") + roll("mountains")
		case Water:
			forests = roll("forests") + roll("forests")
		}
	}
	switch {
	case home && s.Placing != nil:
		// The player places them (003-B4, 003-B6), in the setup prompt.
		s.Placing[player] = &HomeSetup{Planet: name, Forests: forests, Mountains: mountains}
	case home:
		placeTiles(d, p, Forest, forests)
		placeTiles(d, p, Mountain, mountains)
		placeCannon(d, p, player)
		s.Bank[player] = homeBank(p)
	default:
		placeTiles(d, p, Forest, forests)
		placeTiles(d, p, Mountain, mountains)
	}
	p.Dice = strings.Join(rolls, ", ")
	s.Planets = append(s.Planets, p)
	s.SetupDice = append(s.SetupDice, name+": "+p.Dice)
}

// placeTiles puts k tiles of kind on p, each cell picked by a die: interior
// cells first, then the border ("where possible, not on the outer border",
// 003-B4). It returns k.
func placeTiles(d *dice.Dice, p *Planet, kind string, k int) int {
	for i := 0; i < k; i++ {
		free := p.freeCells(true)
		if len(free) == 0 {
			free = p.freeCells(false)
		}
		c := free[d.RollMsg(len(free), lang.M("cell of a %s on %s (%d free)", tileMsg(kind), p.Name, len(free)))-1]
		p.Sites = append(p.Sites, Site{Cell: c, Kind: kind})
	}
	return k
}

// placeCannon puts the starting cannon on a border cell picked by a die (N8).
func placeCannon(d *dice.Dice, p *Planet, player string) {
	free := p.freeCells(false)
	c := free[d.RollMsg(len(free), lang.M("cell of %s's starting cannon on %s", player, p.Name))-1]
	p.Sites = append(p.Sites, Site{Cell: c, Kind: CannonS})
}

// homeBank is ten turns of the home planet's production (003-G4).
func homeBank(p *Planet) Res {
	var prod Res
	for _, st := range p.Sites {
		prod = prod.add(product(st.Kind))
	}
	return prod.times(10)
}

// freeCells lists the planet's empty cells other than the centre: interior
// ones (distance 1 … R−1) or border ones (distance R).
func (p *Planet) freeCells(interior bool) []Cell {
	var out []Cell
	for _, c := range hexCells(p.Centre, p.radius()) {
		dd := dist(p.Centre, c)
		if dd == 0 || (interior && dd == p.radius()) || (!interior && dd != p.radius()) || p.site(c) >= 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

func (s *State) planetIn(sec int) *Planet {
	for _, p := range s.Planets {
		if p.Section == sec {
			return p
		}
	}
	return nil
}

// genAsteroids places sections + modifier-die asteroids (003-R6): each
// section by the position die with no re-roll on collision (they cluster);
// the cell within it picked by a die among cells at least one free cell
// away from planets and other asteroids (003-B5, 003-F4). A section with no
// such cell left is a conflict, so the section is rolled again.
func (s *State) genAsteroids(d *dice.Dice, mod int) {
	secs := s.Grid.Sections()
	m := d.RollMsg(mod, lang.M("asteroid modifier die"))
	count := secs + m
	s.SetupDice = append(s.SetupDice, fmt.Sprintf("asteroids: %d sections + d%d=%d = %d", secs, mod, m, count))
	for i := 1; i <= count; i++ {
		sec, legal, rolls := s.rollAsteroid(d, i)
		if sec == 0 {
			continue
		}
		k := d.RollMsg(len(legal), lang.M("cell of asteroid %d in section %d", i, sec)) - 1
		s.Asteroids = append(s.Asteroids, legal[k])
		s.SetupDice[len(s.SetupDice)-1] = fmt.Sprintf("%s, cell d%d=%d = %s", rolls, len(legal), k+1, legal[k].String())
	}
}

// rollAsteroid rolls asteroid i's section, again while the section has no
// legal cell (at most 10 times; then the asteroid is dropped: section 0).
// The rolls go into the setup dice (a line "asteroid i: section d8=3, …"
// that the caller completes with the cell), so every player can check
// the clusters; rolls is that line.
func (s *State) rollAsteroid(d *dice.Dice, i int) (sec int, legal []Cell, rolls string) {
	var made []string
	for try := 0; try < 10; try++ {
		sec = d.RollMsg(s.Grid.Sections(), lang.M("section of asteroid %d", i))
		made = append(made, fmt.Sprintf("section d%d=%d", s.Grid.Sections(), sec))
		if legal = s.asteroidCells(sec); len(legal) > 0 {
			rolls = fmt.Sprintf("asteroid %d: %s", i, strings.Join(made, ", "))
			s.SetupDice = append(s.SetupDice, rolls)
			return sec, legal, rolls
		}
	}
	s.SetupDice = append(s.SetupDice, fmt.Sprintf("asteroid %d: %s: dropped", i, strings.Join(made, ", ")))
	return 0, nil, ""
}

// asteroidCells are the cells of section sec an asteroid may take.
func (s *State) asteroidCells(sec int) []Cell {
	var legal []Cell
	for _, c := range s.Grid.sectionCells(sec) {
		if s.asteroidRoom(c) {
			legal = append(legal, c)
		}
	}
	return legal
}

func (s *State) asteroidRoom(c Cell) bool {
	for _, p := range s.Planets {
		if dist(p.Centre, c) <= p.radius()+1 {
			return false
		}
	}
	for _, a := range s.Asteroids {
		if dist(a, c) <= 1 {
			return false
		}
	}
	return true
}

func (ruleset) LoadState(data []byte) (engine.State, error) {
	var s State
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, fmt.Errorf("decoding a burning planets state: %w", err)
	}
	return &s, nil
}

// Marshal encodes the state; maps are written in key order by encoding/json.
func (s *State) Marshal() ([]byte, error) { return json.Marshal(s) }

func (s *State) Turn() int {
	if s.Placing != nil || s.AstPick != nil {
		return 0
	}
	return s.Round
}
func (s *State) Phase() string {
	if s.Done {
		return "over"
	}
	if s.AstPick != nil {
		return "asteroid placement"
	}
	if s.Placing != nil {
		return "home placement"
	}
	return "turn of " + s.active()
}

// PhaseMsg is Phase as a message (engine.PhaseMessager), for the mail's
// heading in the reader's language.
func (s *State) PhaseMsg() lang.Msg {
	switch {
	case s.Done:
		return lang.M("over")
	case s.AstPick != nil:
		return lang.M("asteroid placement")
	case s.Placing != nil:
		return lang.M("home placement")
	}
	return lang.M("turn of %s", s.active())
}

var _ engine.PhaseMessager = (*State)(nil)

func (s *State) active() string { return s.Seats[s.Active] }

func (s *State) Outcome() engine.Outcome {
	if !s.Done {
		return engine.Outcome{}
	}
	if m, ok := s.endMsg(); ok {
		return engine.Ended(m, s.Winners...)
	}
	return engine.Outcome{Over: true, Winners: s.Winners, Text: s.EndText}
}

func (s *State) Prompts() []engine.Prompt {
	if s.Done {
		return nil
	}
	if s.AstPick != nil {
		return append([]engine.Prompt{s.asteroidPrompt()}, s.setupAnytime()...)
	}
	if s.Placing != nil {
		return append(s.placePrompts(), s.setupAnytime()...)
	}
	p := s.active()
	out := []engine.Prompt{asked(engine.Prompt{ID: "turn:" + p, Player: p, Kind: engine.KindStep},
		lang.M("It is your turn %d. Catastrophe: %s. Send your building, ship building and actions.", s.Round, s.catTerm()))}
	for _, q := range s.Seats {
		if !s.out(q) {
			out = append(out, asked(engine.Prompt{ID: "any:" + q, Player: q, Kind: engine.KindAnytime},
				lang.M("Any time: LANG, ALLY, BREAK, OFFER, ACCEPT, CANCEL, RESIGN; or your next turn's orders in advance (CLEAR forgets them).")))
		}
	}
	return out
}

// setupAnytime is the any-time prompt of the setup steps: a player may
// already choose their language (so the setup prompts read in it) and
// declare or break alliances; everything else waits for turn 1, when
// there are ships, contracts and turns to send orders for.
func (s *State) setupAnytime() []engine.Prompt {
	var out []engine.Prompt
	for _, q := range s.Seats {
		out = append(out, asked(engine.Prompt{ID: "any:" + q, Player: q, Kind: engine.KindAnytime},
			lang.M("Any time during the setup: LANG, ALLY, BREAK. The other orders wait for turn 1.")))
	}
	return out
}

// asked is p asking m (in its reader's language when a mail is written).
func asked(p engine.Prompt, m lang.Msg) engine.Prompt {
	p.SetAsk(m)
	return p
}

func (s *State) catTerm() lang.Arg { return term(s.catKey()) }

// catKey is the catastrophe of the turn as a term key.
func (s *State) catKey() string {
	switch s.Cat {
	case 1:
		return "climate anomaly"
	case 20:
		return "stellar wind"
	}
	return "none"
}

func (s *State) out(p string) bool {
	for _, q := range s.Out {
		if q == p {
			return true
		}
	}
	return false
}

// tell records the event m for the players to (none: everyone). In a
// game with messages (Msgs) it is one event, written in each reader's
// language when it is read. A game set up before had its events written
// in each reader's language when the step was resolved, and replays so:
// public events became one event per language in use (each addressed to
// that language's readers) when players differed; with one language in
// use they stayed public. Observers (engine.Observer) read the first
// language's event of such a split: English when anyone reads English.
func (s *State) tell(to []string, m lang.Msg) {
	if s.Msgs {
		s.events = append(s.events, engine.Tell(m, to...).Concerning(s.named(m)...))
		return
	}
	readers := to
	if len(to) == 0 {
		readers = s.Seats
	}
	byLang := map[string][]string{}
	for _, p := range readers {
		byLang[s.Lang[p]] = append(byLang[s.Lang[p]], p)
	}
	observersTold := false
	for _, l := range []string{langEN, langRU} {
		ps := byLang[l]
		if len(ps) == 0 {
			continue
		}
		text := render(l, m)
		if len(to) == 0 && len(byLang) == 1 {
			s.events = append(s.events, engine.Event{Text: text})
			continue
		}
		if len(to) == 0 && !observersTold {
			ps = append(append([]string(nil), ps...), engine.Observer)
			observersTold = true
		}
		s.events = append(s.events, engine.Event{Text: text, To: ps})
	}
}

// named is the seats m names, each once, in seat order: an event is news
// for the seats it names (their ships, planets, dice), which a report puts
// first (engine.Event.About).
func (s *State) named(m lang.Msg) []string {
	seen := map[string]bool{}
	var walk func(args []lang.Arg)
	walk = func(args []lang.Arg) {
		for _, a := range args {
			seen[a.Str] = true
			if a.Msg != nil {
				walk(a.Msg.Args)
			}
			walk(a.List)
		}
	}
	walk(m.Args)
	var out []string
	for _, p := range s.Seats {
		if seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// startTurn opens the active player's turn: the catastrophe die and the
// income, both automatic (003(i)).
func (s *State) startTurn(d *dice.Dice) {
	p := s.active()
	s.Cat = d.RollMsg(20, lang.M("catastrophe die of %s, turn %d", p, s.Round))
	if s.Cat == 1 || s.Cat == 20 {
		s.tell(nil, lang.M("Turn %d: %s rolls the catastrophe die: %d (%s).", s.Round, p, s.Cat, s.catTerm()))
	} else {
		s.tell(nil, lang.M("Turn %d: %s rolls the catastrophe die: %d, nothing happens.", s.Round, p, s.Cat))
	}
	inc := s.income(p)
	s.Bank[p] = s.Bank[p].add(inc)
	s.tell(s.bankReaders(p), lang.M("%s collects %s.", p, inc.String()))
}

func (s *State) bankReaders(p string) []string {
	if s.Hidden {
		return []string{p}
	}
	return nil
}

// income is what p's tiles and structures yield this turn, less what the
// catastrophe stops (003-G17). Planets conquered and structures built this
// turn produce nothing simply because income comes first (003-G18).
func (s *State) income(p string) Res {
	var r Res
	stopped := func(kind string) bool {
		switch s.Cat {
		case 1:
			return kind == Greenhouse || kind == Habitat || kind == Forest
		case 20:
			return kind == Furnace || kind == Rig
		}
		return false
	}
	for _, pl := range s.Planets {
		if pl.Owner != p {
			continue
		}
		for _, st := range pl.Sites {
			if !stopped(st.Kind) {
				r = r.add(product(st.Kind))
			}
		}
	}
	for _, st := range s.Structs {
		if st.Owner == p && !stopped(st.Kind) {
			r = r.add(product(st.Kind))
		}
	}
	return r
}

func (s *State) planet(name string) *Planet {
	for _, p := range s.Planets {
		if strings.EqualFold(p.Name, name) {
			return p
		}
	}
	return nil
}

func (s *State) planetAt(c Cell) *Planet {
	for _, p := range s.Planets {
		if p.has(c) {
			return p
		}
	}
	return nil
}

// planetMap is planetAt for every cell of the grid at once, row after
// row (index y*W+x): a board is drawn a cell at a time, and scanning every
// planet for each cell was most of drawing it.
func (s *State) planetMap() []*Planet {
	g := s.Grid
	out := make([]*Planet, g.W()*g.H())
	for _, p := range s.Planets {
		for _, c := range hexCells(p.Centre, p.radius()) {
			if i := c.Y*g.W() + c.X; g.in(c) && out[i] == nil {
				out[i] = p
			}
		}
	}
	return out
}

func (s *State) ship(id int) *Ship {
	for _, sh := range s.Ships {
		if sh.ID == id {
			return sh
		}
	}
	return nil
}

func (s *State) shipAt(c Cell) *Ship {
	for _, sh := range s.Ships {
		if sh.Cell == c {
			return sh
		}
	}
	return nil
}

func (s *State) structAt(c Cell) *Struct {
	for _, st := range s.Structs {
		if st.Cell == c {
			return st
		}
	}
	return nil
}

func (s *State) asteroidAt(c Cell) bool {
	for _, a := range s.Asteroids {
		if a == c {
			return true
		}
	}
	return false
}

// free reports whether a ship may enter or be placed on c: a space cell
// with no ship, station or asteroid.
func (s *State) free(c Cell) bool {
	return s.Grid.in(c) && s.planetAt(c) == nil && s.shipAt(c) == nil && s.structAt(c) == nil && !s.asteroidAt(c)
}

func (s *State) unit(sh *Ship) Unit { return factions[s.Faction[sh.Owner]].Ships[sh.Class] }

func (s *State) shipName(sh *Ship) lang.Msg {
	return lang.M("%s %d (%s)", s.unit(sh).Name, sh.ID, sh.Owner)
}
