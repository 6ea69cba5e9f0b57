package earthman

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

type fullView struct {
	s      *FullState
	player string
	public bool // an observer's: no seat, and no orders to check
	// lang is the language the board, status and picture are drawn in
	// (Localize): "" or "en" for English.
	lang string
}

// PublicView is what an observer sees (engine.PublicViewer): the disc,
// tracks and pools every player sees (001-H: nothing is hidden but the
// Skynet deck, which no view shows), without anyone's standing orders
// (TECH, DEFENSIVE FIRE, PAY, LOSE, EXPOSE, the AI family, CONCEDE TO,
// PEACE, ACCEPT TRANSFERS), which are their owner's alone.
func (s *FullState) PublicView() engine.View { return &fullView{s: s, public: true} }

func (v *fullView) Player() string {
	if v.public {
		return engine.Observer
	}
	return v.player
}

// Parse checks a submission of the full rules for prompt p.
func (v *fullView) Parse(p engine.Prompt, text string) (engine.Orders, []engine.LineError) {
	s := v.s
	if v.public {
		return nil, []engine.LineError{engine.LineErr(0, "", lang.M("an observer has no orders to give"), lang.M("join the game as a player to give orders"))}
	}
	me := v.player
	if me == "" {
		me = p.Player
	}
	n := namer{players: s.Players}
	var out engine.TextOrders
	var errs []engine.LineError
	phase, preludes, uns := fpNone, 0, 0
	launched := map[string]int{}
	devWorlds := map[string][]string{} // world → development verbs, for INFLUENCE
	pooled := map[string]bool{}        // FIRE/COUP world+target, PACIFY world: one line each
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(why, hint lang.Msg) {
			errs = append(errs, engine.LineErr(i+1, line, why, hint))
		}
		o, e := n.parseFullM(line)
		if e != nil {
			errs = append(errs, e.lineErr(i+1, line))
			continue
		}
		ph := fPhase(o.Verb)
		switch {
		case o.Verb == "PRELUDE":
			if p.Kind != engine.KindStep {
				fail(lang.M("PRELUDE is only for the prelude turns"), lang.Msg{})
				continue
			}
			if preludes++; preludes > 1 {
				fail(lang.M("a prelude turn is one action"), lang.M("keep one PRELUDE line"))
				continue
			}
		case ph != fpNone:
			if p.Kind != engine.KindTurn {
				fail(lang.M("%s is a %s order and can only be given in your turn", o.Verb, fpMsg(ph)), lang.M("at any time you may send standing orders: TECH, DEFENSIVE FIRE, PAY, OVERTHROWN, LOSE, EXPOSE, AI, CONCEDE, PEACE, ACCEPT TRANSFERS, ACCEPT SHARES"))
				continue
			}
			if ph < phase {
				fail(lang.M("%s is a %s order, but it comes after %s orders: sections are taken in order", o.Verb, fpMsg(ph), fpMsg(phase)), lang.M("move this line up"))
				continue
			}
			phase = ph
		}
		msg, fix := v.check(me, o, launched, &uns)
		if msg.IsZero() && (o.Verb == "FIRE" || o.Verb == "COUP" || o.Verb == "PACIFY") {
			// The dice of every fleet at a world that fires at (or overthrows)
			// one target are one roll, so hits and pairs are counted over all
			// of them (001-G15) and the UN answers Open Fire once a world
			// (001-G17); Pacification's pairs likewise. A second line would
			// split the dice and waste an odd one.
			key := o.Verb + " " + o.World + " " + o.Target
			if pooled[key] {
				what := o.Verb + " " + o.World + " <n> AT " + o.Target
				if o.Verb == "PACIFY" {
					what = "PACIFY " + o.World + " <n>"
				}
				msg, fix = lang.M("a second %s line: the dice of all your fleets taking that action there are one roll", what),
					lang.M("add the fleets up into one line")
			}
			pooled[key] = true
		}
		if msg.IsZero() && ph == fpDev {
			// 2.5.4 takes every development on the world.
			prev := devWorlds[o.World]
			if len(prev) > 0 && (o.Verb == "INFLUENCE" || contains(prev, "INFLUENCE")) {
				msg, fix = lang.M("Political Influence takes all your developments on %s: no other development action there", o.World),
					lang.M("keep either INFLUENCE or the other orders for %s", o.World)
			}
			devWorlds[o.World] = append(prev, o.Verb)
		}
		if !msg.IsZero() {
			fail(msg, fix)
			continue
		}
		out = append(out, o.String())
	}
	if p.Kind == engine.KindStep && preludes == 0 && len(errs) == 0 {
		errs = append(errs, engine.LineErr(0, "", lang.M("no PRELUDE order"), lang.M("write e.g. PRELUDE FLEET")))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if p.Kind == engine.KindTurn && len(out) == 0 {
		// An empty turn is not nothing (engine.View.Parse): in its one
		// movement pass every fleet in a trajectory moves worldward, to
		// the first branch (2.3). Say so in orders.
		for _, t := range board.Trajectories() {
			if f := s.Fleets[t.Name][me]; f != nil && f.Ok+f.Risk > 0 {
				out = append(out, fOrder{Verb: "ROUTE", N: f.Ok + f.Risk, From: t.Name, To: board.Children(t.Name)[0]}.String())
			}
		}
	}
	return out, nil
}

func (v *fullView) check(me string, o fOrder, launched map[string]int, uns *int) (why, hint lang.Msg) {
	s := v.s
	switch o.Verb {
	case "PASSES":
		if max := 1 + s.level(me, "Spaceflight"); o.N > max {
			return lang.M("you may take %s (Spaceflight level %d)", lang.MN("%d movement pass", "%d movement passes", max), max-1), lang.M("write PASSES %d or less", max)
		}
	case "PRELAUNCH", "LAUNCH":
		if o.Verb == "PRELAUNCH" && s.level(me, "Launch") == 0 {
			return lang.M("PRELAUNCH needs the Launch technology"), lang.M("use LAUNCH, after movement")
		}
		launched[o.From] += o.N
		f := s.Fleets[o.From][me]
		have := 0
		if f != nil {
			have = f.Ok + f.Risk
		}
		if launched[o.From] > have {
			return lang.M("you launch %s from %s but have %d in orbit there", nFleets(launched[o.From]), o.From, have), lang.M("launch fewer")
		}
	case "FIRE", "COUP", "DEFEND":
		if o.Target == me {
			return lang.M("you cannot target yourself"), lang.M("name another faction after AT")
		}
		if o.Verb == "DEFEND" && o.Target == un {
			return lang.M("the UN has no fleets to fire at"), lang.M("name a player after AT")
		}
	case "UN":
		if *uns++; *uns > 1 {
			return lang.M("UN assistance is once a turn"), lang.M("keep one UN line")
		}
	case "CONCEDE":
		if o.Target == me {
			return lang.M("you cannot concede to yourself"), lang.M("name another player, or CONCEDE NONE")
		}
	case "SHARE":
		if !s.Collab {
			return lang.M("research collaborations are not in play in this game"), lang.M("the option research-collaborations is off")
		}
		if o.Target == me {
			return lang.M("you cannot share with yourself"), lang.M("name another player")
		}
	case "TRANSFER":
		if !s.Territory {
			return lang.M("territorial agreements are not in play in this game"), lang.M("the option territorial-agreements is off")
		}
		if o.Target == me {
			return lang.M("you cannot transfer to yourself"), lang.M("name another player")
		}
	case "AI":
		if o.Target == "SHIELD" && contains(o.List, me) {
			return lang.M("AI DEFEND already answers dice against you"), lang.M("leave yourself out of AI SHIELD")
		}
	case "DEFENSIVE":
		if contains(o.List, me) {
			return lang.M("you cannot fire at yourself"), lang.M("leave yourself out of the list")
		}
		if contains(o.List, un) {
			return lang.M("the UN never arrives anywhere"), lang.M("name players only")
		}
	}
	return lang.Msg{}, lang.Msg{}
}

// letterOf is a faction's tag: seats a, b, c… (capital when At Risk), U
// for the UN.
func (s *FullState) letterOf(f string, risk bool) string {
	if f == un {
		// The UN has no lower case: its At Risk regions (after an
		// Overthrow) are marked with a '!' by regionsOf.
		return "U"
	}
	for i, p := range s.Players {
		if p == f {
			if risk {
				return string(rune('A' + i))
			}
			return string(rune('a' + i))
		}
	}
	return "?"
}

// regionsOf shows a world's regions, one token each: the owner's letter
// (capital if At Risk; the UN's U followed by '!') or '#' for Devastation,
// followed by the count if above 1, or '.' if empty; then the holders of
// Political Influence after one '+'. Venus at the start is [#2#2##].
func (s *FullState) regionsOf(w string) string {
	var parts []string
	for _, reg := range s.Regions[w] {
		switch {
		case reg.Devs > 0:
			t := s.letterOf(reg.Owner, reg.AtRisk)
			if reg.Devs > 1 {
				t += fmt.Sprint(reg.Devs)
			}
			if reg.Owner == un && reg.AtRisk {
				t += "!"
			}
			parts = append(parts, t)
		case reg.Devastation > 1:
			parts = append(parts, fmt.Sprintf("#%d", reg.Devastation))
		case reg.Devastation == 1:
			parts = append(parts, "#")
		default:
			parts = append(parts, ".")
		}
	}
	out := "[" + strings.Join(parts, "") + "]"
	if len(s.PI[w]) > 0 {
		// One '+' and a letter each, so six holders on Earth still fit.
		out += "+"
		for _, p := range s.PI[w] {
			out += s.letterOf(p, false)
		}
	}
	return out
}

// fleetsOf lists fleets at a place: "a3 b2(1!)": b has 2, 1 At Risk.
func (s *FullState) fleetsOf(at string) string {
	var parts []string
	for _, p := range s.Players {
		f := s.Fleets[at][p]
		if f == nil || f.Ok+f.Risk == 0 {
			continue
		}
		t := fmt.Sprintf("%s%d", s.letterOf(p, false), f.Ok+f.Risk)
		if f.Risk > 0 {
			t += fmt.Sprintf("(%d!)", f.Risk)
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

func (v *fullView) Board() string {
	s := v.s
	var legend []string
	for _, p := range s.Players {
		legend = append(legend, s.letterOf(p, false)+"="+p)
	}
	// drawDisc words its headings in English; once the first edition's
	// drawDiscIn is merged, this is drawDiscIn(v.tag(), …).
	return drawDiscIn(v.tag(), func(name string) bool { return s.fleetsOf(name) != "-" }, s.regionsOf, s.fleetsOf,
		v.t(lang.M("Factions: %s  U=UN. Capital = At Risk; # = Devastation; "+
			"U! = a UN region At Risk; a digit after = how many; .=empty region; "+
			"+xy = x's and y's Political Influence; (n!) = n fleets At Risk", strings.Join(legend, "  "))))
}

// Status is the tracks and pools table, in sentences.
func (v *fullView) Status() string {
	s := v.s
	var b strings.Builder
	line := func(m lang.Msg) { b.WriteString(engine.Wrap(v.t(m), 78, "", "  ") + "\n") }
	switch s.Stage {
	case "prelude":
		line(lang.M("Prelude: %s to take a prelude turn (%d left in all).", s.Players[s.Preludes[0]], len(s.Preludes)))
	case "turns":
		line(lang.M("Turn %d: %s to play. First player: %s.", s.TurnN, s.Players[s.Active], s.Players[s.First]))
	default:
		var end any = s.Result.Text // a game ended before messages
		if s.Result.Msg != nil {
			end = *s.Result.Msg
		}
		line(lang.M("Game over: %s.", end))
	}
	if s.Triggered {
		line(lang.M("The end is triggered: the game ends after this round, with a final Score."))
	}
	if s.Skynet {
		line(lang.M("Skynet: the rogue AI marker is at %d of 15.", s.Rogue))
	}
	for _, p := range s.Players {
		pl := s.P[p]
		m := lang.M("%s (%s): %d VP, %d Power; Economy %d, Discontent %d, AI %d",
			p, s.letterOf(p, false), pl.VP, pl.Power, pl.Economy, pl.Discontent, pl.AI)
		if pl.Sanctions {
			m = lang.M("%s; UN Sanctions (%d of 5 paid)", m, pl.SanctionRs)
		}
		var tl []string
		for _, t := range techs {
			if lv, pr := pl.Tech[t.Name], pl.Progress[t.Name]; lv > 0 || pr > 0 {
				x := fmt.Sprintf("%s %d", t.Name, lv)
				if pr > 0 {
					x += fmt.Sprintf(" (+%d/%d)", pr, t.Steps)
				}
				tl = append(tl, x)
			}
		}
		if len(tl) > 0 {
			m = lang.M("%s; technologies: %s", m, strings.Join(tl, ", "))
		}
		b.WriteString(wrap(v.t(lang.M("%s.", m)), 78))
	}
	if v.player != "" {
		b.WriteString(wrap(v.t(lang.M("Your standing orders: %s.", strings.Join(v.standingOrders(), "; "))), 78))
	}
	return b.String()
}

// standingOrders are the viewer's standing orders, as they are written.
func (v *fullView) standingOrders() []string {
	pl := v.s.P[v.player]
	s := v.s
	df := "ALL"
	if pl.DefFire == "NONE" {
		df = "NONE"
	} else if pl.DefFire == "AT" {
		df = "AT " + strings.Join(pl.DefAt, ",")
	}
	so := []string{"DEFENSIVE FIRE " + df, "PAY " + map[bool]string{true: "SCRAP", false: "DISCONTENT"}[pl.PayWith == "scrap"],
		"OVERTHROWN " + map[bool]string{true: "YIELD", false: "RISK"}[pl.Overthrown == "YIELD"]}
	for _, w := range board.Worlds() {
		if x, ok := pl.OverthrownOn[w.Name]; ok {
			so = append(so, "OVERTHROWN "+x+" ON "+w.Name)
		}
	}
	so = append(so, "LOSE "+map[bool]string{true: "ATRISK", false: "FEWEST"}[pl.LoseAtRisk])
	if len(pl.Expose) > 0 {
		so = append(so, "EXPOSE "+strings.Join(pl.Expose, ","))
	}
	so = append(so, pl.aiOwnOrder(), "AI DEFEND "+pl.aiDefendWord())
	if pl.AIKeep > 0 {
		so = append(so, fmt.Sprintf("AI KEEP %d", pl.AIKeep))
	}
	if len(pl.AIShield) > 0 {
		so = append(so, "AI SHIELD "+strings.Join(pl.AIShield, ","))
	}
	switch {
	case pl.NoResearch:
		so = append(so, "TECH NONE")
	case len(pl.TechPlan) > 0:
		so = append(so, "TECH "+strings.Join(pl.TechPlan, ","))
	}
	if len(pl.TechNever) > 0 {
		so = append(so, "TECH NEVER "+strings.Join(pl.TechNever, ","))
	}
	if pl.ConcedeTo != "" {
		so = append(so, "CONCEDE TO "+pl.ConcedeTo)
	}
	if pl.Peace {
		so = append(so, "PEACE YES")
	}
	if s.Territory {
		so = append(so, "ACCEPT TRANSFERS "+map[bool]string{true: "NONE", false: "ALL"}[pl.RefuseAll])
	}
	if s.Collab {
		so = append(so, "ACCEPT SHARES "+pl.acceptShares())
	}
	return so
}

// Full returns the full rules of The Earthman's Burden.
func Full() engine.Ruleset { return full{} }

type full struct{}

// fullHelpFormat is the order help with its shapes (fullGrammar) and
// lists left out as %s, so that the same text is a message (fullHelpMsg)
// its Russian words around the order words, which stay.
const fullHelpFormat = `Your turn (Score and Risk are done for you when it begins), sections in order:
  2.3 movement     PASSES <n>   (Spaceflight: movement passes this turn)
                   PRELAUNCH <n> FROM <world> TO <trajectory>   (Launch tech.)
                   %s
                   %s
  2.4 fleets       %s
                   EXPAND <world> <size>[,<size>...] [CLEAR] [NEW]
                     (sizes 1-3)
                   %s
                   PACIFY <world> <n> [<result>[,<result>...]]
                     (results FLEET, REGION, DISCONTENT, SANCTIONS)
                   (one FIRE and one COUP line per target, one PACIFY line,
                   a world: the fleets' dice are one roll)
  2.5 developments BUILD <world> <group>[,<group>...]   (groups 1, 2, 3, 3x2)
                   %s
                   %s
                   %s
  2.6 UN           %s
  2.7 end of turn  SHARE <technology> WITH <player>
                     (option research-collaborations)
                   TRANSFER <n> FLEET AT <place> TO <player>
                   TRANSFER REGION <world> <number> TO <player>
                     (option territorial-agreements)
An empty turn is the moves your fleets in space make anyway (ROUTE orders).
Standing orders, at any time:
  TECH <technology>[,<technology>...]   research priorities: a success none
      of them can take goes to the first in the rules' order; TECH ANY (the
      default) has no priorities; TECH NONE declines every success; TECH
      NEVER <technology>[,...] refuses those for good (TECH NEVER NONE: none)
  %s   (default ALL)
  %s   (for lost developments; default DISCONTENT)
  OVERTHROWN RISK|YIELD   (default RISK); OVERTHROWN RISK|YIELD ON <world>
      overrides it on one world, OVERTHROWN GENERAL ON <world> ends that
  LOSE FEWEST | LOSE ATRISK   which region Open Fire takes (default FEWEST)
  EXPOSE <place>[,<place>...] | EXPOSE NONE   where your fleets go At Risk,
      are scrapped or mutiny first (default NONE: board order)
  %s   %s
  AI OWN ON|OFF|ALL|<roll>[,<roll>...]   re-roll your own dice when a
      re-roll can improve the result; ON (default) = EXPAND,BUILD,INFLUENCE;
      rolls are %s,
      %s
  AI DEFEND ON|OFF|LAST|ALL|MIN <k>   re-roll dice against you: ON (default)
      while they would take a region, LAST only your last region, ALL fleets
      too, MIN k when they would harm you with k or more successes
  AI KEEP <n>   keep n thoughts unspent (default 0)
  AI SHIELD <player>[,<player>...]|NONE   re-roll others' dice against
      them too
  ACCEPT TRANSFERS ALL|NONE   (default ALL)
  ACCEPT SHARES ALL|NONE|<technology>[,<technology>...]   (default ALL)
Prelude (option): PRELUDE FLEET | PRELUDE RESEARCH <technology>
                  | PRELUDE LAUNCH FROM <place> TO <trajectory>
Technologies: %s,
  %s,
  %s`

// fullHelpArgs are what fullHelpFormat leaves out, in order.
func fullHelpArgs() []any {
	g := func(v string) any { return fullGrammar[v] }
	return []any{g("ROUTE"), g("LAUNCH"), g("FIRE"), g("COUP"), g("RESEARCH"), g("DEFEND"), g("INFLUENCE"), g("UN"),
		g("DEFENSIVE"), g("PAY"), g("CONCEDE"), g("PEACE"),
		strings.Join(aiKinds[:5], ", "), strings.Join(aiKinds[5:], ", "),
		strings.Join(techNames()[:6], ", "), strings.Join(techNames()[6:11], ", "), strings.Join(techNames()[11:], ", ")}
}

// fullHelpMsg is the order help as a message.
func fullHelpMsg() lang.Msg { return lang.M(fullHelpFormat, fullHelpArgs()...) }

// fullHelp is the order help in English (Info.OrderHelp).
var fullHelp = fmt.Sprintf(fullHelpFormat, fullHelpArgs()...)

// The options' help (Info.Options), constants so that each is a message
// too (Translate).
const (
	fullOptVictory   = "what Victory score triggers the end"
	fullOptSkynet    = "6.1 Skynet: AI rolls of 1 draw Unexpected AI Thoughts; 15 Rogue and all lose"
	fullOptCollab    = "6.2: at the end of your turn, SHARE a technology with each other player once"
	fullOptTerritory = "6.3: at the end of your turn, TRANSFER fleets and regions, at a risk"
	fullOptPrelude   = "6.4 Prelude: three prelude turns each before the first turn"
)

// fullSummary is the rules summary (Info.Summary).
const fullSummary = "Earth's powers expand into the Solar System under the UN's eye, scoring Victory Points " +
	"from Power; fleets move through Approach, Interplanetary and Solar System trajectories, " +
	"act in orbit, and developments construct, research, defend and win influence."

func (full) Info() engine.Info {
	onOff := []string{"off", "on"}
	return engine.Info{
		Version: 3, // see engine.Info.Version: raise it with a rule change
		Name:    "earthman", Title: "The Earthman's Burden",
		MinPlayers: 2, MaxPlayers: 6,
		Options: []engine.Option{
			{Name: "victory", Default: "30-or-more", Choices: []string{"30-or-more", "more-than-30"}, Help: fullOptVictory},
			{Name: "skynet", Default: "off", Choices: onOff, Help: fullOptSkynet},
			{Name: "research-collaborations", Default: "off", Choices: onOff, Help: fullOptCollab},
			{Name: "territorial-agreements", Default: "off", Choices: onOff, Help: fullOptTerritory},
			{Name: "prelude", Default: "off", Choices: onOff, Help: fullOptPrelude},
		},
		Summary:   fullSummary,
		OrderHelp: fullHelp,
	}
}

func (full) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) {
	st, err := newFull(s, d)
	if err != nil {
		return nil, err
	}
	return st, nil
}

func (full) LoadState(data []byte) (engine.State, error) {
	var s FullState
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, fmt.Errorf("reading an Earthman's Burden state: %w", err)
	}
	for _, p := range board.Places {
		if s.Fleets[p.Name] == nil || p.Kind == World && len(s.Regions[p.Name]) != p.Regions {
			return nil, fmt.Errorf("reading an Earthman's Burden state: %s is missing or has the wrong regions", p.Name)
		}
	}
	for _, p := range s.Players {
		if s.P[p] == nil {
			return nil, fmt.Errorf("reading an Earthman's Burden state: no player board for %s", p)
		}
	}
	return &s, nil
}

// Bot plays the full rules to win; see fullBot.
func (full) Bot(v engine.View, p engine.Prompt, r *rand.Rand) string {
	fv, ok := v.(*fullView)
	if !ok {
		return ""
	}
	return fullBot(fv.s, p, r)
}
