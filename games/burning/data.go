package burning

// shipData is a ship as report.json shows it: its cargo and the structure
// it carries only to its owner (003-H1).
type shipData struct {
	ID    int    `json:"id"`
	Owner string `json:"owner"`
	Class string `json:"class"`
	Cell  Cell   `json:"cell"`
	At    string `json:"at"` // the cell as players write it: C4
	Cargo *Res   `json:"cargo,omitempty"`
	Load  string `json:"load,omitempty"`
}

// viewData is the view as data, in the state's own shape, with what the
// reader may not see left out.
type viewData struct {
	Grid        Grid                `json:"grid"`
	Seats       []string            `json:"seats"`
	Faction     map[string]string   `json:"faction"`
	Lang        map[string]string   `json:"lang"`
	Bank        map[string]Res      `json:"bank"` // the banks the reader may see
	Allies      map[string][]string `json:"allies"`
	Out         []string            `json:"out,omitempty"`
	Planets     []*Planet           `json:"planets"`
	Asteroids   []Cell              `json:"asteroids"`
	Ships       []shipData          `json:"ships"`
	Structs     []*Struct           `json:"structs"`
	Contracts   []*Contract         `json:"contracts"`         // the reader's own, open
	Advance     []string            `json:"advance,omitempty"` // the reader's advance orders
	Placing     *HomeSetup          `json:"placing,omitempty"` // what the reader has still to place
	AstPick     *AsteroidPick       `json:"ast_pick,omitempty"`
	Round       int                 `json:"round"`
	Active      string              `json:"active"`
	Cat         int                 `json:"cat"`
	HugeMode    string              `json:"huge_mode"`
	HiddenBanks bool                `json:"hidden_banks"`
	Limit       int                 `json:"turn_limit"`
	SetupDice   []string            `json:"setup_dice"`
	Done        bool                `json:"done"`
	Winners     []string            `json:"winners,omitempty"`
	EndText     string              `json:"end_text,omitempty"`
}

// Data is the view as data for the machine-readable report (report.json,
// engine.ViewData): the galaxy and the status table as this view shows
// them. Another player's cargo and carried structure, contracts between
// others, others' advance orders and home placements, and the banks while
// banks are hidden stay out (003-H1, 003-H2, 003-H4); the GM's view ("")
// has them all.
func (v view) Data() any {
	s := v.s
	sees := func(p string) bool { return v.player == "" || v.player == p }
	d := &viewData{Grid: s.Grid, Seats: s.Seats, Faction: s.Faction, Lang: s.Lang, Bank: map[string]Res{}, Allies: s.Allies,
		Out: s.Out, Planets: s.Planets, Asteroids: s.Asteroids, Ships: []shipData{}, Structs: s.Structs, Contracts: []*Contract{},
		AstPick: s.AstPick, Round: s.Round, Cat: s.Cat, HugeMode: s.HugeMode, HiddenBanks: s.Hidden,
		Limit: s.Limit, SetupDice: s.SetupDice, Done: s.Done, Winners: s.Winners, EndText: s.EndText}
	if len(s.Seats) > 0 && s.Active < len(s.Seats) {
		d.Active = s.Seats[s.Active]
	}
	for p, b := range s.Bank {
		if sees(p) || !s.Hidden {
			d.Bank[p] = b
		}
	}
	for _, sh := range s.Ships {
		x := shipData{ID: sh.ID, Owner: sh.Owner, Class: sh.Class, Cell: sh.Cell, At: sh.Cell.String()}
		if sees(sh.Owner) {
			cargo := sh.Cargo
			x.Cargo, x.Load = &cargo, sh.Load
		}
		d.Ships = append(d.Ships, x)
	}
	for _, c := range s.Contracts {
		if !c.Cancelled && (sees(c.From) || sees(c.To)) {
			d.Contracts = append(d.Contracts, c)
		}
	}
	if v.player != publicSeat && v.player != "" {
		d.Advance = s.Advance[v.player]
		d.Placing = s.Placing[v.player]
	}
	return d
}
