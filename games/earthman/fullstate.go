package earthman

// The position of the full rules and its unit rules (sections 2.2 and
// 3.1–3.4), with the owner's standing choices where the rules leave one.

import (
	"fmt"
	"strings"

	"orrery/engine/dice"
	"orrery/engine/lang"
)

// fullPlayer is a player board and the player's tracks.
type fullPlayer struct {
	Economy    int            `json:"economy"`    // resources
	Discontent int            `json:"discontent"` // Devastation markers
	AI         int            `json:"ai"`         // thoughts
	VP         int            `json:"vp"`
	Power      int            `json:"power"`
	Sanctions  bool           `json:"sanctions,omitempty"`
	SanctionRs int            `json:"sanction_resources,omitempty"`
	Tech       map[string]int `json:"tech,omitempty"`
	// PayWith is the standing order for a 3.4 shortfall: "discontent"
	// (the default: fleets are worth more than a 1-in-6 risk) or "scrap".
	PayWith string `json:"pay_with,omitempty"`
	// Standing orders for other players' turns (001-C*).
	DefFire    string   `json:"def_fire,omitempty"` // "" = ALL, NONE, AT
	DefAt      []string `json:"def_at,omitempty"`
	Overthrown string   `json:"overthrown,omitempty"` // "" = RISK, YIELD
	// OverthrownOn is 001-C4's per-world override: world -> RISK or YIELD.
	OverthrownOn map[string]string `json:"overthrown_on,omitempty"`
	TechPlan     []string          `json:"tech_plan,omitempty"`
	// NoResearch is TECH NONE: every research success is declined
	// (2.5.2 says a player "may" research). TechNever lists what TECH
	// NEVER refuses: a success never goes to these, so a Skynet player
	// need not take AI levels against their will.
	NoResearch  bool           `json:"no_research,omitempty"`
	TechNever   []string       `json:"tech_never,omitempty"`
	ConcedeTo   string         `json:"concede_to,omitempty"`
	Peace       bool           `json:"peace,omitempty"`
	Progress    map[string]int `json:"progress,omitempty"` // research steps of the level in progress
	AIOwnOff    bool           `json:"ai_own_off,omitempty"`
	AIDefendOff bool           `json:"ai_defend_off,omitempty"`
	// AI standing orders (001-C7, fullai.go): AIOwn nil is AI OWN ON;
	// AIDefend "" is AI DEFEND ON, else LAST, ALL or MIN (with
	// AIDefendMin, the k of AI DEFEND MIN k).
	AIOwn       []string `json:"ai_own,omitempty"`
	AIDefend    string   `json:"ai_defend,omitempty"`
	AIDefendMin int      `json:"ai_defend_min,omitempty"`
	AIKeep      int      `json:"ai_keep,omitempty"`
	AIShield    []string `json:"ai_shield,omitempty"`
	RefuseAll   bool     `json:"refuse_transfers,omitempty"`
	// Shares is the standing order ACCEPT SHARES (001-C9): nil takes all
	// shared research (the default), ["NONE"] none, else only these.
	Shares []string `json:"accept_shares,omitempty"`
	// Expose lists the places whose fleets are set At Risk, scrapped and
	// mutiny first (2.2.2, 3.4); then board order.
	Expose []string `json:"expose,omitempty"`
	// LoseAtRisk: Open Fire takes At Risk regions first (LOSE ATRISK;
	// default LOSE FEWEST, 001-C3).
	LoseAtRisk bool `json:"lose_at_risk,omitempty"`
}

// fullRegion is one region: its developments (one owner), At Risk, and the
// Devastation counters that block it.
type fullRegion struct {
	Owner       string `json:"owner,omitempty"`
	Devs        int    `json:"devs,omitempty"`
	AtRisk      bool   `json:"at_risk,omitempty"`
	Devastation int    `json:"devastation,omitempty"`
}

// fullFleets are one player's fleets at one place.
type fullFleets struct {
	Ok   int `json:"ok,omitempty"`
	Risk int `json:"risk,omitempty"`
}

// fullState is a position of the full rules.
type fullState struct {
	Players []string                          `json:"players"`
	P       map[string]*fullPlayer            `json:"p"`
	Regions map[string][]fullRegion           `json:"regions"` // world → regions
	PI      map[string][]string               `json:"pi,omitempty"`
	Fleets  map[string]map[string]*fullFleets `json:"fleets"` // place → player
}

// newFullState sets up 1.3 and 1.5: UN developments on every Earth region,
// Devastation by 001-F3, 3 resources and 3 fleets in Earth orbit each.
func newFullState(players []string) *fullState {
	s := &fullState{Players: append([]string(nil), players...), P: map[string]*fullPlayer{},
		Regions: map[string][]fullRegion{}, PI: map[string][]string{}, Fleets: map[string]map[string]*fullFleets{}}
	for _, w := range board.Worlds() {
		regs := make([]fullRegion, w.Regions)
		for i, d := range initialDevastation(w) {
			regs[i].Devastation = d
			if w.Name == "Earth" {
				regs[i].Owner, regs[i].Devs = un, 1
			}
		}
		s.Regions[w.Name] = regs
	}
	for _, p := range board.Places {
		s.Fleets[p.Name] = map[string]*fullFleets{}
	}
	for _, p := range players {
		s.P[p] = &fullPlayer{Economy: 3}
		s.fleetsAt(p, "Earth").Ok = 3
	}
	return s
}

func (s *fullState) fleetsAt(p, at string) *fullFleets {
	f := s.Fleets[at][p]
	if f == nil {
		f = &fullFleets{}
		s.Fleets[at][p] = f
	}
	return f
}

func (s *fullState) hasPI(p, world string) bool { return contains(s.PI[world], p) }

// addFleet is 3.1: pay a resource, or take a Devastation marker into the
// Discontent Pool. Resources are used first; noDiscontent is 2.6's UN fleet.
func (s *fullState) addFleet(p, at string, noDiscontent bool) (lang.Msg, bool) {
	pl := s.P[p]
	switch {
	case pl.Economy > 0:
		pl.Economy--
	case noDiscontent:
		return lang.M("%s cannot pay a resource for a fleet on %s", p, at), false
	default:
		pl.Discontent++
	}
	s.fleetsAt(p, at).Ok++
	return lang.M("%s adds a fleet at %s", p, at), true
}

// addDev is 3.2 for a development added to region i of world.
func (s *fullState) addDev(p, world string, i int, atRisk bool) {
	r := &s.Regions[world][i]
	first := r.Devs == 0
	r.Owner = p
	r.Devs++
	r.AtRisk = r.AtRisk || atRisk
	if p == un {
		return // 001-G30: the UN has no pools or Power.
	}
	pl := s.P[p]
	pl.Economy += 2
	pl.Power++
	if first && (s.hasPI(p, world) || world == "Earth") {
		pl.Power++
	}
}

// removeFleet is 3.3: the fleet goes back to the Economy Pool unless it is
// scrapped to pay for a lost development. At Risk fleets go first (the
// 001-C2 default).
func (s *fullState) removeFleet(p, at string, scrap bool) bool {
	f := s.fleetsAt(p, at)
	switch {
	case f.Risk > 0:
		f.Risk--
	case f.Ok > 0:
		f.Ok--
	default:
		return false
	}
	if !scrap && p != un {
		s.P[p].Economy++
	}
	return true
}

// placesFor is the order in which p's fleets take a loss that the rules
// leave to the owner: the places of p's standing order EXPOSE, then board
// order.
func (s *fullState) placesFor(p string) []string {
	var out []string
	if pl := s.P[p]; pl != nil {
		out = append(out, pl.Expose...)
	}
	for _, x := range board.Places {
		if !contains(out, x.Name) {
			out = append(out, x.Name)
		}
	}
	return out
}

// chose names how a place was chosen for the report.
func (s *fullState) chose(p, at string) lang.Msg {
	if pl := s.P[p]; pl != nil && contains(pl.Expose, at) {
		return lang.M("at %s, by standing order EXPOSE %s", at, strings.Join(pl.Expose, ","))
	}
	return lang.M("at %s (the first such place in board order)", at)
}

// riskOneFleet sets one healthy fleet of p At Risk (placesFor) and says
// where, or nothing (the zero Msg) if p has no healthy fleet.
func (s *fullState) riskOneFleet(p string) lang.Msg {
	for _, at := range s.placesFor(p) {
		if f := s.Fleets[at][p]; f != nil && f.Ok > 0 {
			f.Ok--
			f.Risk++
			return s.chose(p, at)
		}
	}
	return lang.Msg{}
}

// removeDev is 3.4 for one development of region i of world. The two
// resources are paid from the Economy Pool, then by the player's standing
// PayWith order: scrap a fleet (At Risk first, first in board order) or
// take Discontent and roll (a 1 sets a fleet At Risk).
func (s *fullState) removeDev(d *dice.Dice, world string, i int, devastate bool) []lang.Msg {
	r := &s.Regions[world][i]
	p := r.Owner
	var told []lang.Msg
	r.Devs--
	last := r.Devs == 0
	if last {
		r.Owner, r.AtRisk = "", false
		if devastate {
			r.Devastation++
		}
	}
	if p == un {
		return told
	}
	pl := s.P[p]
	for k := 0; k < 2; k++ {
		if pl.Economy > 0 {
			pl.Economy--
			continue
		}
		if pl.PayWith == "scrap" {
			if at := s.scrapAny(p); !at.IsZero() {
				told = append(told, lang.M("%s scraps a fleet %s to pay for a lost development (standing order PAY SCRAP)", p, at))
				continue
			}
		}
		why := lang.M("standing order PAY DISCONTENT")
		if pl.PayWith == "scrap" {
			why = lang.M("no fleet left to scrap")
		}
		pl.Discontent++
		safe, ai := s.riskRoll(d, p, 2, lang.M("%s's discontent over a lost development on %s: a 1 sets a fleet At Risk", p, world))
		told = append(told, ai...)
		if safe {
			told = append(told, lang.M("%s takes discontent for a lost development (%s)", p, why))
		} else if at := s.riskOneFleet(p); !at.IsZero() {
			told = append(told, lang.M("%s takes discontent for a lost development (%s) and rolls a 1: a fleet %s is now At Risk", p, why, at))
		} else {
			told = append(told, lang.M("%s takes discontent for a lost development (%s)", p, why))
		}
	}
	pl.Power = max(pl.Power-1, 0)
	if last && (s.hasPI(p, world) || world == "Earth") {
		pl.Power = max(pl.Power-1, 0)
	}
	if s.devsOn(p, world) == 0 && s.hasPI(p, world) {
		var keep []string
		for _, x := range s.PI[world] {
			if x != p {
				keep = append(keep, x)
			}
		}
		s.PI[world] = keep
		told = append(told, lang.M("%s loses the Political Influence counter on %s", p, world))
	}
	return told
}

// scrapAny scraps one of p's fleets (placesFor) and says where, or
// nothing (the zero Msg).
func (s *fullState) scrapAny(p string) lang.Msg {
	for _, at := range s.placesFor(p) {
		if f := s.Fleets[at][p]; f != nil && f.Ok+f.Risk > 0 {
			s.removeFleet(p, at, true)
			return s.chose(p, at)
		}
	}
	return lang.Msg{}
}

// removeRegion removes all of p's developments in region i (3.4 each).
func (s *fullState) removeRegion(d *dice.Dice, world string, i int) []lang.Msg {
	var told []lang.Msg
	for s.Regions[world][i].Devs > 0 {
		told = append(told, s.removeDev(d, world, i, true)...)
	}
	return told
}

func (s *fullState) devsOn(p, world string) int {
	n := 0
	for _, r := range s.Regions[world] {
		if r.Owner == p {
			n += r.Devs
		}
	}
	return n
}

// riskRoll is one of p's own rolls of 2.2 or 3.4, safe on need or more;
// p's standing order AI OWN RISK re-rolls it while it is not (001-C7:
// nobody else has a reason to, bar an enemy, which AI SHIELD does not
// cover). It returns whether it is safe and the report of any spending.
func (s *fullState) riskRoll(d *dice.Dice, p string, need int, purpose lang.Msg) (bool, []lang.Msg) {
	safe, faces := rollAtLeast(d, need, purpose)
	var told []lang.Msg
	pl := s.P[p]
	for !safe && pl != nil && contains(pl.aiOwn(), "RISK") && pl.AI > pl.AIKeep {
		pl.AI--
		old := faces[0]
		safe, faces = rollAtLeast(d, need, lang.M("%s's AI thought: re-roll of %s", p, purpose))
		told = append(told, lang.M("%s spends an AI thought (standing order %s; %d left): re-roll of %s, %d → %d: %s",
			p, pl.aiOwnOrder(), pl.AI, purpose, old, faces[0], map[bool]lang.Msg{true: lang.M("safe"), false: lang.M("not safe")}[safe]))
	}
	return safe, told
}

// spreadRisk is 2.2.1 for player p: one roll per At Risk fleet and
// region, counted before any roll; on 2 or less the risk spreads to a
// healthy fleet at the same place (region on the same world), or, if
// there is none, one fleet there (the developments of that region) are
// removed.
func (s *fullState) spreadRisk(d *dice.Dice, p string) []lang.Msg {
	var told []lang.Msg
	for _, pl := range board.Places {
		f := s.Fleets[pl.Name][p]
		if f == nil {
			continue
		}
		for k, n := 0, f.Risk; k < n; k++ {
			safe, ai := s.riskRoll(d, p, 3, lang.M("%s: risk spreads from a fleet at %s on 2-", p, pl.Name))
			told = append(told, ai...)
			if safe {
				continue
			}
			if f.Ok > 0 {
				f.Ok--
				f.Risk++
				told = append(told, lang.M("risk spreads to another of %s's fleets at %s", p, pl.Name))
			} else if s.removeFleet(p, pl.Name, false) {
				told = append(told, lang.M("%s loses an At Risk fleet at %s", p, pl.Name))
			}
		}
	}
	for _, w := range board.Worlds() {
		regs := s.Regions[w.Name]
		var risky []int
		for i, r := range regs {
			if r.Owner == p && r.AtRisk {
				risky = append(risky, i)
			}
		}
		for _, i := range risky {
			if regs[i].Owner != p {
				continue // already lost to an earlier roll
			}
			safe, ai := s.riskRoll(d, p, 3, lang.M("%s: risk spreads from region %d of %s on 2-", p, i+1, w.Name))
			told = append(told, ai...)
			if safe {
				continue
			}
			spread := false
			for j := range regs {
				if regs[j].Owner == p && !regs[j].AtRisk {
					regs[j].AtRisk, spread = true, true
					told = append(told, lang.M("risk spreads to region %d of %s", j+1, w.Name))
					break
				}
			}
			if !spread {
				told = append(told, lang.M("%s loses the developments of region %d of %s", p, i+1, w.Name))
				told = append(told, s.removeRegion(d, w.Name, i)...)
			}
		}
	}
	return told
}

// discontent is 2.2.2: one roll per Devastation marker in p's Discontent
// Pool; each 2 or less sets a fleet At Risk (or removes one if all are),
// then a second roll of 1 is a mutiny.
func (s *fullState) discontent(d *dice.Dice, p string) []lang.Msg {
	var told []lang.Msg
	for k, n := 0, s.P[p].Discontent; k < n; k++ {
		safe, ai := s.riskRoll(d, p, 3, lang.M("%s: general discontent (marker %d of %d) on 2-", p, k+1, n))
		told = append(told, ai...)
		if safe {
			continue
		}
		if at := s.riskOneFleet(p); !at.IsZero() {
			told = append(told, lang.M("%s: discontent sets a fleet At Risk %s", p, at))
		} else if at := s.scrapAny(p); !at.IsZero() {
			s.P[p].Economy++ // 3.3: a removed fleet returns as a resource
			told = append(told, lang.M("%s: discontent removes a fleet %s", p, at))
		}
		safe, ai = s.riskRoll(d, p, 2, lang.M("%s: mutiny on a 1", p))
		told = append(told, ai...)
		if !safe {
			told = append(told, s.mutiny(p))
		}
	}
	return told
}

// mutiny removes an At Risk and a healthy fleet from one place, or else two
// At Risk fleets from one place, or else one At Risk fleet (001-G11); the
// place by placesFor. Removed fleets return to the Economy Pool (3.3).
func (s *fullState) mutiny(p string) lang.Msg {
	for _, at := range s.placesFor(p) {
		if f := s.Fleets[at][p]; f != nil && f.Risk > 0 && f.Ok > 0 {
			f.Risk--
			f.Ok--
			s.P[p].Economy += 2
			return lang.M("mutiny! %s loses an At Risk and a loyal fleet %s", p, s.chose(p, at))
		}
	}
	for _, at := range s.placesFor(p) {
		if f := s.Fleets[at][p]; f != nil && f.Risk >= 2 {
			f.Risk -= 2
			s.P[p].Economy += 2
			return lang.M("mutiny! %s loses two At Risk fleets %s", p, s.chose(p, at))
		}
	}
	// 001-G11: with no pair anywhere, the constraints allow one At Risk
	// fleet to go; with none At Risk, nothing happens.
	for _, at := range s.placesFor(p) {
		if f := s.Fleets[at][p]; f != nil && f.Risk > 0 {
			f.Risk--
			s.P[p].Economy++
			return lang.M("mutiny! %s has no pair of fleets that can mutiny together, and loses one At Risk fleet %s", p, s.chose(p, at))
		}
	}
	return lang.M("mutiny! but %s has no At Risk fleet to mutiny", p)
}

// fullSummary is a compact text of a full position for tests.
func (s *fullState) fullSummary() string {
	var b strings.Builder
	for _, p := range s.Players {
		pl := s.P[p]
		fmt.Fprintf(&b, "%s: economy %d discontent %d power %d\n", p, pl.Economy, pl.Discontent, pl.Power)
	}
	for _, pl := range board.Places {
		for _, p := range s.Players {
			if f := s.Fleets[pl.Name][p]; f != nil && f.Ok+f.Risk > 0 {
				fmt.Fprintf(&b, "%s %s fleets %d ok %d at risk\n", pl.Name, p, f.Ok, f.Risk)
			}
		}
	}
	for _, w := range board.Worlds() {
		for i, r := range s.Regions[w.Name] {
			if r.Owner != "" && r.Owner != un || r.AtRisk {
				fmt.Fprintf(&b, "%s %d: %s x%d risk=%v dev=%d\n", w.Name, i+1, r.Owner, r.Devs, r.AtRisk, r.Devastation)
			}
		}
	}
	return b.String()
}

// overthrown is q's answer to an Overthrow pair on world w: the per-world
// override if any (001-C4), else the general OVERTHROWN order; and the
// order's text for the report.
func (pl *fullPlayer) overthrown(w string) (yield bool, order string) {
	if x, ok := pl.OverthrownOn[w]; ok {
		return x == "YIELD", "OVERTHROWN " + x + " ON " + w
	}
	if pl.Overthrown == "YIELD" {
		return true, "OVERTHROWN YIELD"
	}
	return false, "OVERTHROWN RISK"
}

// acceptShares is the player's ACCEPT SHARES order as written.
func (pl *fullPlayer) acceptShares() string {
	if pl.Shares == nil {
		return "ALL"
	}
	return strings.Join(pl.Shares, ",")
}
