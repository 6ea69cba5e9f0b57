package burning

import (
	"fmt"
	"sort"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// Resolve runs either one anytime answer (LANG, ALLY, BREAK) or the active
// player's turn, then opens the next player's turn with its catastrophe
// die and income.
func (s *State) Resolve(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	s.events = nil
	s.Story = nil
	if s.Done {
		return nil, fmt.Errorf("the game is over")
	}
	if s.AstPick != nil || s.Placing != nil {
		// Any-time answers of the setup (LANG, ALLY, BREAK) run at once;
		// the setup step resolves with its own prompts' answers.
		var step []engine.Answer
		for _, a := range answers {
			if a.Prompt.Kind != engine.KindAnytime {
				step = append(step, a)
				continue
			}
			lines := linesOf(a.Orders)
			for _, line := range lines {
				if o, pr := parseLine(line); pr != nil || !setupAnytimeVerb(o.Verb) {
					return nil, fmt.Errorf("stored setup order %q of %s is not LANG, ALLY or BREAK", line, a.Prompt.Player)
				}
			}
			if err := s.run(a.Prompt.Player, lines, d); err != nil {
				return nil, err
			}
		}
		if len(step) == 0 {
			return s.events, nil
		}
		if s.AstPick != nil {
			return s.resolveAsteroid(step, d)
		}
		return s.resolvePlacement(step, d)
	}
	stepped := false
	for _, a := range answers {
		p := a.Prompt.Player
		if a.Prompt.Kind == engine.KindStep {
			if p != s.active() {
				return nil, fmt.Errorf("%s answered a turn prompt but it is %s's turn", p, s.active())
			}
			stepped = true
		}
		lines := linesOf(a.Orders)
		if a.Prompt.Kind == engine.KindAnytime {
			// Turn orders sent at any time wait for the sender's turn.
			var now, later []string
			for _, line := range lines {
				if o, pr := parseLine(line); pr == nil && o.phase() != 0 {
					later = append(later, line)
				} else {
					now = append(now, line)
				}
			}
			lines = now
			if len(later) > 0 {
				if s.Advance == nil {
					s.Advance = map[string][]string{}
				}
				s.Advance[p] = later
				s.tell([]string{p}, lang.M("%s's advance orders are kept for their next turn (%s).", p, lineCount(len(later))))
			}
		}
		if err := s.run(p, lines, d); err != nil {
			return nil, err
		}
	}
	s.eliminate()
	if s.Done = s.victory(); !s.Done && (stepped || s.out(s.active())) {
		s.next(d)
	}
	return s.events, nil
}

// run carries out p's canonical lines. An order that fails now (dice or an
// earlier line changed the board since it was checked) is skipped, and its
// writer told why.
func (s *State) run(p string, lines []string, d *dice.Dice) error {
	t := newTurn(s, p, d)
	for _, line := range lines {
		o, pr := parseLine(line)
		if pr != nil {
			return fmt.Errorf("stored order %q of %s does not parse: %s", line, p, pr.why.English())
		}
		if pr := t.do(&o, 0); pr != nil {
			s.tell([]string{p}, lang.M("%s's order %q was not carried out: %s", p, line, pr.why))
		}
	}
	return nil
}

func linesOf(o engine.Orders) []string {
	if o == nil {
		return nil
	}
	return o.Lines()
}

// eliminate removes players with no planet, no ship and no space structure
// (003-G22).
func (s *State) eliminate() {
	for _, p := range s.Seats {
		if s.out(p) {
			continue
		}
		alive := false
		for _, pl := range s.Planets {
			alive = alive || pl.Owner == p
		}
		for _, sh := range s.Ships {
			alive = alive || sh.Owner == p
		}
		for _, st := range s.Structs {
			alive = alive || st.Owner == p
		}
		if !alive {
			s.Out = append(s.Out, p)
			s.tell(nil, lang.M("%s is eliminated.", p))
		}
	}
}

func (s *State) survivors() []string {
	var out []string
	for _, p := range s.Seats {
		if !s.out(p) {
			out = append(out, p)
		}
	}
	return out
}

// victory ends the game when one player survives, or when every survivor
// has declared an alliance with every other (003-G22: shared victory).
func (s *State) victory() bool {
	alive := s.survivors()
	if len(alive) == 1 {
		s.Winners = alive
		s.EndText = lang.M("%s won: every enemy is destroyed.", alive[0]).English()
		s.tell(nil, lang.M("%s won: every enemy is destroyed.", alive[0]))
		return true
	}
	for _, p := range alive {
		for _, q := range alive {
			if p != q && !contains(s.Allies[p], q) {
				return false
			}
		}
	}
	s.Winners = alive
	names := strings.Join(alive, ", ")
	s.EndText = lang.M("%s share the victory as allies.", names).English()
	s.tell(nil, lang.M("%s share the victory as allies.", names))
	return true
}

// endText is the end of the game in language l. The state records it in
// English (EndText, part of what replays byte for byte); the sentence is
// one of the three the rules end on, made again from the winners and
// picked by its English, then written in l.
func (s *State) endText(l string) string {
	if m, ok := s.endMsg(); ok {
		return render(l, m)
	}
	return s.EndText
}

// endMsg is the end of the game as a message (for the Outcome), made
// again from the winners as endText does; ok is false for an EndText
// that is none of the three (not reached).
func (s *State) endMsg() (lang.Msg, bool) {
	names := strings.Join(s.Winners, ", ")
	for _, m := range []lang.Msg{
		lang.M("%s won: every enemy is destroyed.", names),
		lang.M("%s share the victory as allies.", names),
		lang.M("The turn limit is reached; most planets: %s.", names),
	} {
		if m.English() == s.EndText {
			return m, true
		}
	}
	return lang.Msg{}, false
}

// next passes the turn to the next surviving seat. If that player sent
// advance orders, their turn runs at once and the turn passes on again.
func (s *State) next(d *dice.Dice) {
	for !s.Done {
		for {
			s.Active++
			if s.Active == len(s.Seats) {
				s.Active = 0
				s.Round++
				if s.Limit > 0 && s.Round > s.Limit {
					s.endAtLimit()
					return
				}
				s.lapseContracts()
			}
			if !s.out(s.active()) {
				break
			}
		}
		s.startTurn(d)
		p := s.active()
		adv := s.Advance[p]
		if len(adv) == 0 {
			return
		}
		delete(s.Advance, p)
		s.tell([]string{p}, lang.M("%s's advance orders run.", p))
		// Stored lines were read when sent, so they parse.
		_ = s.run(p, adv, d)
		s.eliminate()
		s.Done = s.victory()
	}
}

// lapseContracts ends, at the start of a turn, every contract whose time
// (OFFER … TURNS n) is up, offered or accepted (003-C1's optional expiry).
// Only the two parties are told, and nothing of its terms: they know them.
func (s *State) lapseContracts() {
	for _, c := range s.Contracts {
		if c.Expires > 0 && c.Expires <= s.Round && !c.Cancelled {
			c.Accepted, c.Cancelled = false, true
			s.tell([]string{c.From, c.To}, lang.M("Contract %d between %s and %s lapses: its time is up.", c.ID, c.From, c.To))
		}
	}
}

func (s *State) endAtLimit() {
	s.Round = s.Limit
	best := -1
	var win []string
	for _, p := range s.survivors() {
		n := 0
		for _, pl := range s.Planets {
			if pl.Owner == p {
				n++
			}
		}
		switch {
		case n > best:
			best, win = n, []string{p}
		case n == best:
			win = append(win, p)
		}
	}
	s.Done, s.Winners = true, win
	s.EndText = lang.M("The turn limit is reached; most planets: %s.", strings.Join(win, ", ")).English()
	s.tell(nil, lang.M("The turn limit is reached; most planets: %s.", strings.Join(win, ", ")))
}

// view is what one player sees; the GM ("") sees everything.
type view struct {
	s      *State
	player string
	// tag is the language the view is drawn in when a reader's is given
	// (Localize); "": its player's in-game language (English for a
	// reader with no seat).
	tag string
}

func (s *State) View(player string) engine.View { return view{s: s, player: player} }

// publicSeat is the seat of nobody. Every check of what a view may show
// asks whether the reader is the GM ("") or the owner, so a view for this
// seat shows what any player sees of another's: no cargo, no structure
// aboard a ship, no contract, no advance orders, no bank while banks are
// hidden (003-H1, 003-H2, 003-H4).
const publicSeat = "\x00public"

// PublicView is what an observer sees: the board and status as a player
// sees another player's, in English.
func (s *State) PublicView() engine.View { return view{s: s, player: publicSeat} }

func (v view) Player() string {
	if v.player == publicSeat {
		return engine.Observer
	}
	return v.player
}

func (v view) lang() string {
	if v.tag != "" {
		return v.tag
	}
	if l := v.s.Lang[v.player]; l != "" {
		return l
	}
	return langEN
}

func (v view) Parse(p engine.Prompt, text string) (engine.Orders, []engine.LineError) {
	player := p.Player
	if player == "" {
		player = v.player
	}
	// The public view belongs to no seat: it parses nobody's orders, even
	// for a prompt that names a player.
	if player == publicSeat || v.player == publicSeat {
		return nil, []engine.LineError{notPlayer()}
	}
	if (v.s.AstPick != nil || v.s.Placing != nil) && p.Kind == engine.KindAnytime {
		return v.parseSetupAnytime(player, text)
	}
	if v.s.AstPick != nil {
		return v.parseAsteroid(player, text)
	}
	if v.s.Placing != nil {
		if v.s.Placing[player] == nil {
			return nil, []engine.LineError{notPlayer()}
		}
		return v.parsePlacement(player, text)
	}
	type parsed struct {
		o    order
		line int
		text string
	}
	var list []parsed
	var errs []engine.LineError
	lineErr := func(n int, text string, pr *problem) { errs = append(errs, pr.lineErr(n, text)) }
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o, pr := parseLine(line)
		if pr == nil && p.Kind == engine.KindAnytime && o.phase() != 0 && !v.s.Done && v.s.active() == player {
			pr = prob(lang.M("it is your turn: send these orders as your turn's orders"))
		}
		if pr != nil {
			lineErr(i+1, line, pr)
			continue
		}
		list = append(list, parsed{o, i + 1, line})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].o.phase() < list[j].o.phase() })
	t := newTurn(v.s, player, nil)
	var out engine.TextOrders
	for _, x := range list {
		if p.Kind == engine.KindAnytime && x.o.phase() != 0 {
			// Advance orders: only their grammar can be checked now; the
			// rest is checked line by line when the turn opens.
			out = append(out, x.o.String())
			continue
		}
		if pr := t.do(&x.o, x.line); pr != nil {
			lineErr(x.line, x.text, pr)
			continue
		}
		out = append(out, x.o.String())
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// notPlayer is the error of orders sent for no seat.
func notPlayer() engine.LineError {
	return engine.LineErr(0, "", lang.M("only a player gives orders here"), lang.M("send orders as one of the players"))
}

func setupAnytimeVerb(v string) bool { return v == vLang || v == vAlly || v == vBreak }

// parseSetupAnytime checks what a player sends at any time during the
// setup steps: LANG, ALLY and BREAK only.
func (v view) parseSetupAnytime(player, text string) (engine.Orders, []engine.LineError) {
	if _, ok := v.s.Lang[player]; !ok {
		return nil, []engine.LineError{notPlayer()}
	}
	t := newTurn(v.s, player, nil)
	return parseEach(text, func(o *order, line, _ int) *problem {
		if !setupAnytimeVerb(o.Verb) {
			return prob(lang.M("during the setup only LANG, ALLY and BREAK: send the other orders when turn 1 opens"))
		}
		return t.do(o, line)
	})
}

// CheckSyntax checks the grammar of every line, with no game at hand.
func (ruleset) CheckSyntax(text string) []engine.LineError {
	var errs []engine.LineError
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if _, pr := parseLine(line); pr != nil {
			errs = append(errs, pr.lineErr(i+1, line))
		}
	}
	return errs
}
