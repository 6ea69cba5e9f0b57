package game

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// Input is a set of orders from one player, whatever way it came.
type Input struct {
	Game   string
	Player string
	Text   string
	// Prompt names the prompt answered. Empty picks the player's first
	// open blocking prompt, else their anytime prompt; but a text made only
	// of orders the anytime prompt takes goes there even when a turn or
	// step is asked of the player: any-time orders (a standing order, a
	// language) never consume or replace the orders of a turn.
	Prompt string
	Source string // mail, cli, gm, bot
	Ref    string // Message-ID or similar, kept in the log

	// botAt is set on a bot's orders (playBots): the epoch and step of
	// the state they were written for. Another goroutine (the daemon's
	// tick, while game new plays the same bots) may have answered the
	// prompt or resolved the step since; such orders are dropped.
	botAt *botState
}

// botState is where a game stood when a bot wrote its orders.
type botState struct {
	epoch int
	step  uint64
}

// errStaleBot drops a bot's orders written for a state that is gone.
var errStaleBot = errors.New("the bot's orders were written for an earlier state")

// SubmitResult says what became of a submission.
type SubmitResult struct {
	Game     *Game
	Prompt   engine.Prompt
	Accepted bool
	Orders   []string           // canonical orders, when accepted
	Errors   []engine.LineError // every rejected line, when not
	Replaced bool               // earlier orders for the same prompt were replaced
	Steps    []Step             // resolutions the submission triggered
	// Anytime lists the accepted orders that are any-time orders: all of
	// Orders when they went to the player's anytime prompt (resolved at
	// once, the turn's orders untouched), else those of a turn's orders
	// that the anytime prompt would take alone (they run where the rules
	// run them in the turn). The acknowledgement lists them apart.
	Anytime []string
	// Receipt is the part these orders will be in the step's dice inputs
	// (receipt.go), for the ack; nil under dice scheme 1.
	Receipt *dice.Part
}

// Step is one resolution as reported: its record, and the reports of the
// state it left, built on demand (a bot game resolves thousands of steps
// whose reports nobody reads).
type Step struct {
	StepRecord
	render func(player string) (*Report, error)
}

// Report is the report of this step as player sees it ("" for the GM).
func (s Step) Report(player string) (*Report, error) {
	if s.render == nil {
		return nil, fmt.Errorf("step %d has no state to report", s.N)
	}
	return s.render(player)
}

// Submit checks orders against the player's view and, if they are accepted,
// stores them as the player's answer to the prompt, replacing any earlier
// answer. A step resolves at once when the game's settings say so and every
// blocking prompt is answered, or when the prompt is an anytime prompt.
// Rejected orders change nothing but the log.
func (s *Service) Submit(ctx context.Context, in Input, hooks ...Hook) (*SubmitResult, error) {
	res, err := s.submit(ctx, in, hooks)
	if err != nil {
		return res, err
	}
	if err := s.playBots(ctx, in.Game, hooks); err != nil {
		return res, err
	}
	return res, nil
}

func (s *Service) submit(ctx context.Context, in Input, hooks []Hook) (*SubmitResult, error) {
	res := &SubmitResult{}
	err := s.st.Update(ctx, func(tx store.Tx) error {
		*res = SubmitResult{}
		// The refusals up to the first write are marked Unchanged: in
		// the daemon's batch (store.Group) a mail refused so does not
		// roll back the mails handled before it. At 10 games one mail
		// in five was such a refusal (orders sent before the seat's
		// turn), and each rolled its batch back and had it done again.
		b, err := gameBucket(tx, in.Game)
		if err != nil {
			return store.Unchanged(err)
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		if in.botAt != nil && (g.Over() || *in.botAt != (botState{g.Epoch, g.Step}) || contains(g.Answered, in.Prompt)) {
			return store.Unchanged(errStaleBot)
		}
		if g.Over() {
			return store.Unchanged(userErr(lang.M("game %s is over: %s", g.ID, g.Outcome.Text)))
		}
		if g.Signup {
			return store.Unchanged(userErr(lang.M("game %s has not started: %d of %d seats taken", g.ID, len(g.Players), g.Seats)))
		}
		pl, ok := g.PlayerByName(in.Player)
		if !ok {
			return store.Unchanged(userErr(lang.M("there is no player %q in game %s", in.Player, g.ID)))
		}
		if contains(g.Kicked, pl.Name) && in.Source != "gm" {
			return store.Unchanged(userErr(lang.M("%s was removed from game %s by the GM; the seat plays its defaults", pl.Name, g.ID)))
		}
		prompt, err := pickPrompt(g, pl.Name, in.Prompt)
		if err != nil {
			return store.Unchanged(err)
		}
		_, st, err := s.loadState(b, g)
		if err != nil {
			return err
		}
		if in.Prompt == "" {
			prompt = anytimeFirst(g, st, pl.Name, prompt, in.Text)
		}
		res.Prompt = prompt
		now := s.now().UTC()
		orders, errs := st.View(pl.Name).Parse(prompt, in.Text)
		if len(errs) > 0 {
			res.Errors = errs
			// The log keeps what the answer lists, no more: one mail
			// of 80,000 bad lines stored 7.9 MB here before.
			var msgs []string
			for _, e := range errs[:min(len(errs), MaxLoggedErrors)] {
				msgs = append(msgs, limitLine(e.Error()))
			}
			res.Game = g
			err := appendLog(b, &Entry{Time: now, Kind: "rejected", Step: g.Step + 1, Player: pl.Name, Prompt: prompt.ID,
				Source: in.Source, Ref: in.Ref, Text: limitText(in.Text), Errors: msgs, ErrorsMore: len(errs) - len(msgs)})
			if err != nil {
				return err
			}
			// Hooks run for rejections too: the reply that names the
			// errors must commit with the log entry, or not at all.
			return runHooks(tx, &Change{Game: g, Submit: res, Input: &in, Service: s}, hooks)
		}
		res.Accepted = true
		res.Orders = append([]string(nil), orders.Lines()...)
		res.Anytime = anytimeLines(g, st, pl.Name, prompt, res.Orders)
		res.Receipt = g.receipt(st, prompt, orders)
		text := engine.OrdersText(orders)
		e := &Entry{Time: now, Kind: "orders", Step: g.Step + 1, Player: pl.Name, Prompt: prompt.ID, Source: in.Source, Ref: in.Ref, Text: text}
		if err := appendLog(b, e); err != nil {
			return err
		}
		pb := b.Bucket(store.BucketPending)
		count := 1
		if old := pb.Get([]byte(prompt.ID)); old != nil {
			res.Replaced = true
			var prev pending
			if err := json.Unmarshal(old, &prev); err != nil {
				return fmt.Errorf("read pending orders %s: %w", prompt.ID, err)
			}
			count = max(prev.Count, 1) + 1
		}
		if err := putJSON(pb, []byte(prompt.ID), pending{Prompt: prompt, Text: text, Source: in.Source, Ref: in.Ref, Seq: e.Seq, Time: now, Count: count}); err != nil {
			return err
		}
		if !contains(g.Answered, prompt.ID) {
			g.Answered = append(g.Answered, prompt.ID)
		}
		g.Updated = now
		var steps []Step
		var notices []Notice
		allIn := s.mayResolveEarly(g, now)
		switch {
		case prompt.Kind == engine.KindAnytime:
			steps, notices, err = s.resolveTx(b, g, st, "anytime", []string{prompt.ID})
		case allIn && g.Settings.EarlyDelay > 0:
			// Everyone is in: resolve after the delay (Tick), so that
			// a player may still change orders or say WAIT.
			g.ResolveAt = now.Add(g.Settings.EarlyDelay)
			err = writeGame(b, g)
		case allIn:
			steps, notices, err = s.resolveTx(b, g, st, "all orders in", nil)
		default:
			err = writeGame(b, g)
		}
		if err != nil {
			return err
		}
		res.Steps = steps
		res.Game = g
		return runHooks(tx, &Change{Game: g, Submit: res, Steps: steps, Notices: notices, Input: &in, Service: s}, hooks)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// mayResolveEarly reports whether g may resolve before its deadline now:
// early resolution is on, the game is not paused, nobody said WAIT, the
// minimum gap since the last step is over, and no awaited player is
// missing. Submit, the resolve loop and Tick all ask this.
func (s *Service) mayResolveEarly(g *Game, now time.Time) bool { return mayResolveEarlyAt(g, now) }

// mayResolveEarlyAt is mayResolveEarly without a Service (tickAction).
func mayResolveEarlyAt(g *Game, now time.Time) bool {
	return g.Settings.Early && !g.Paused && len(g.Waits) == 0 && !now.Before(g.gapEnds()) && len(awaitedAt(g, now)) == 0
}

// MaxLoggedErrors is how many of a refused submission's errors its log
// entry keeps (the mail side lists as many in its answer); the entry
// counts the rest.
const MaxLoggedErrors = 50

// limitText cuts a refused submission's text for the log, at a line: the
// errors kept name the lines that matter, each with its text.
func limitText(s string) string {
	const max = 1024
	if len(s) > max {
		cut := strings.LastIndexByte(s[:max], '\n') + 1
		if cut == 0 {
			cut = validCut(s, max)
		}
		return s[:cut] + "\n[... cut]"
	}
	return s
}

// limitLine cuts one error message for the log.
func limitLine(s string) string {
	const max = 200
	if len(s) > max {
		return s[:validCut(s, max)] + "..."
	}
	return s
}

// validCut is n, or less so that s[:n] ends on a whole UTF-8 character.
func validCut(s string, n int) int {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func pickPrompt(g *Game, player, id string) (engine.Prompt, error) {
	mine := g.PromptsFor(player)
	if id != "" {
		for _, p := range mine {
			if p.ID == id {
				return p, nil
			}
		}
		return engine.Prompt{}, userErr(lang.M("nothing called %q is asked of %s in game %s now", id, player, g.ID))
	}
	for _, p := range mine {
		if p.Kind.Blocks() {
			return p, nil
		}
	}
	for _, p := range mine {
		return p, nil
	}
	waiting := g.Waiting()
	if len(waiting) == 0 {
		return engine.Prompt{}, userErr(lang.M("nothing is asked of %s in game %s now", player, g.ID))
	}
	return engine.Prompt{}, userErr(lang.M("nothing is asked of %s in game %s now; waiting for %s", player, g.ID, strings.Join(waiting, ", ")))
}

// anytimePromptOf returns player's open anytime prompt.
func anytimePromptOf(g *Game, player string) (engine.Prompt, bool) {
	for _, p := range g.PromptsFor(player) {
		if p.Kind == engine.KindAnytime {
			return p, true
		}
	}
	return engine.Prompt{}, false
}

// anytimeFirst is the prompt a text with no prompt named answers: the
// player's anytime prompt when the text holds orders and all of them are
// orders that prompt takes (LANG RU sent on one's turn is a setting, not
// the turn), else picked, the prompt pickPrompt chose. A choice prompt
// (an interrupt asking what to do before the dice) is answered by exactly
// such orders, so it keeps them.
func anytimeFirst(g *Game, st engine.State, player string, picked engine.Prompt, text string) engine.Prompt {
	if picked.Kind != engine.KindTurn && picked.Kind != engine.KindStep {
		return picked
	}
	a, ok := anytimePromptOf(g, player)
	if !ok {
		return picked
	}
	orders, errs := st.View(player).Parse(a, text)
	if len(errs) > 0 || orders == nil || len(orders.Lines()) == 0 {
		return picked
	}
	return a
}

// anytimeLines lists the accepted orders (canonical lines) of prompt that
// are any-time orders, for the acknowledgement: all of them for the
// anytime prompt itself, else each line the player's anytime prompt takes
// alone.
func anytimeLines(g *Game, st engine.State, player string, prompt engine.Prompt, lines []string) []string {
	if prompt.Kind == engine.KindAnytime {
		return append([]string(nil), lines...)
	}
	a, ok := anytimePromptOf(g, player)
	if !ok {
		return nil
	}
	var out []string
	v := st.View(player)
	for _, l := range lines {
		if o, errs := v.Parse(a, l); len(errs) == 0 && o != nil && len(o.Lines()) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// AdvanceResult says what an Advance did.
type AdvanceResult struct {
	Game    *Game
	Steps   []Step
	Waiting []string // players still to answer, when nothing was due
	Due     bool
	Paused  bool // nothing was done: the game is paused (force resolves anyway)
}

// Advance resolves the current step if it is due: every blocking prompt is
// answered or the deadline has passed. With force it resolves anyway, and
// the defaults of the unanswered prompts apply.
func (s *Service) Advance(ctx context.Context, id string, force bool, hooks ...Hook) (*AdvanceResult, error) {
	res := &AdvanceResult{}
	err := s.st.Update(ctx, func(tx store.Tx) error {
		*res = AdvanceResult{}
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		res.Game = g
		if g.Over() {
			return userErr(lang.M("game %s is over: %s", g.ID, g.Outcome.Text))
		}
		if g.Signup {
			return userErr(lang.M("game %s has not started: %d of %d seats taken", g.ID, len(g.Players), g.Seats))
		}
		waiting := s.awaited(g, s.now())
		reason := ""
		switch {
		case g.Paused && !force:
			res.Waiting = waiting
			res.Paused = true
			return nil
		case len(waiting) == 0:
			reason = "all orders in"
		case force:
			reason = "forced by the GM"
		case !g.Deadline.IsZero() && !s.now().Before(g.Deadline.Add(g.Settings.Grace)):
			reason = "deadline"
		default:
			res.Waiting = waiting
			return nil
		}
		res.Due = true
		_, st, err := s.loadState(b, g)
		if err != nil {
			return err
		}
		steps, notices, err := s.resolveTx(b, g, st, reason, nil)
		if err != nil {
			return err
		}
		res.Steps = steps
		return runHooks(tx, &Change{Game: g, Steps: steps, Notices: notices, Service: s}, hooks)
	})
	if err != nil {
		return nil, err
	}
	if err := s.playBots(ctx, id, hooks); err != nil {
		return res, err
	}
	return res, nil
}

// resolveTx resolves one step of g and keeps resolving while the next step
// is already fully answered. only, when set, restricts the step to those
// prompts (anytime answers). It updates g and stores everything in b.
func (s *Service) resolveTx(b store.Bucket, g *Game, st engine.State, reason string, only []string) ([]Step, []Notice, error) {
	var steps []Step
	var notices []Notice
	for {
		step, n, err := s.resolveOne(b, g, st, reason, only)
		if err != nil {
			return steps, notices, err
		}
		steps = append(steps, step)
		notices = append(notices, n...)
		// Orders held for the turn this step opened apply now (ahead.go).
		held, err := s.applyAhead(b, g, st, s.now().UTC())
		if err != nil {
			return steps, notices, err
		}
		notices = append(notices, held...)
		only = nil
		if g.Over() || len(g.Answered) == 0 || !s.mayResolveEarly(g, s.now()) || g.Settings.EarlyDelay > 0 {
			return steps, notices, nil
		}
		reason = "all orders in"
	}
}

func (s *Service) resolveOne(b store.Bucket, g *Game, st engine.State, reason string, only []string) (Step, []Notice, error) {
	pend, err := readPending(b)
	if err != nil {
		return Step{}, nil, err
	}
	var answers []engine.Answer
	var records []AnswerRecord
	for _, p := range g.Prompts {
		if only != nil && !contains(only, p.ID) {
			continue
		}
		if only == nil && !p.Kind.Blocks() {
			continue
		}
		text, def := p.Default, true
		if pd, ok := pend[p.ID]; ok {
			text, def = pd.Text, false
		}
		a, rec, err := parseAnswer(st, p, text, def)
		if err != nil {
			return Step{}, nil, fmt.Errorf("game %s step %d: %w", g.ID, g.Step+1, err)
		}
		answers = append(answers, a)
		records = append(records, rec)
	}
	n := g.Step + 1
	subs := map[string]sent{}
	for id, pd := range pend {
		subs[id] = sent{seq: pd.Seq, count: max(pd.Count, 1)}
	}
	d, rec := g.stepDice(n, g.answerParts(st, n, answers, records))
	rec.LastOrders, rec.LastResent = lastOrders(records, subs)
	events, err := st.Resolve(answers, d)
	if err != nil {
		return Step{}, nil, fmt.Errorf("game %s step %d: resolve: %w", g.ID, n, err)
	}
	if err := d.Err(); err != nil {
		return Step{}, nil, fmt.Errorf("game %s step %d: dice: %w", g.ID, n, err)
	}
	data, err := st.Marshal()
	if err != nil {
		return Step{}, nil, fmt.Errorf("game %s step %d: encode state: %w", g.ID, n, err)
	}
	now := s.now().UTC()
	g.Step = n
	s.refresh(g, st)
	if !g.Over() && len(g.Prompts) == 0 {
		return Step{}, nil, fmt.Errorf("game %s step %d: the ruleset asks nothing of anyone but the game is not over", g.ID, n)
	}
	// Answers consumed by this step go; answers to prompts that are no
	// longer open go too (they answered a question that was withdrawn).
	pb := b.Bucket(store.BucketPending)
	open := map[string]bool{}
	for _, p := range g.Prompts {
		open[p.ID] = true
	}
	g.Answered = nil
	for id := range pend {
		used := false
		for _, r := range records {
			if r.Prompt.ID == id {
				used = true
			}
		}
		if used || !open[id] {
			if err := pb.Delete([]byte(id)); err != nil {
				return Step{}, nil, err
			}
			continue
		}
		g.Answered = append(g.Answered, id)
	}
	sortStrings(g.Answered)
	g.Updated = now
	rec.Turn, rec.Phase, rec.Reason, rec.Time, rec.Answers, rec.Events = g.Turn, g.Phase, reason, now, records, events
	rec.Rolls, rec.Streams, rec.NextCommitment = d.Rolls(), d.Streams(), g.NextCommitment()
	var notices []Notice
	if only == nil {
		// An anytime step changes nothing of the schedule.
		if notices, err = s.afterStep(b.Tx(), g, rec, now); err != nil {
			return Step{}, nil, err
		}
	}
	entry := &Entry{Time: now, Kind: "resolve", Step: n, Reason: reason, Answers: records}
	if err := appendLog(b, entry); err != nil {
		return Step{}, nil, err
	}
	rec.LogSeq = entry.Seq
	if err := writeStep(b, rec, data); err != nil {
		return Step{}, nil, err
	}
	if err := writeGame(b, g); err != nil {
		return Step{}, nil, err
	}
	s.log.Info("step resolved", "game", g.ID, "step", n, "turn", g.Turn, "phase", g.Phase, "reason", reason)
	return s.stepOf(g, st, rec), notices, nil
}

func parseAnswer(st engine.State, p engine.Prompt, text string, def bool) (engine.Answer, AnswerRecord, error) {
	orders, errs := st.View(p.Player).Parse(p, text)
	if len(errs) > 0 {
		if !def {
			return engine.Answer{}, AnswerRecord{}, fmt.Errorf("orders of %s for %s no longer parse: %v", p.Player, p.ID, errs[0])
		}
		// A default that no longer fits is the ruleset's bug; doing
		// nothing is the only safe answer.
		orders, errs = st.View(p.Player).Parse(p, "")
		if len(errs) > 0 {
			return engine.Answer{}, AnswerRecord{}, fmt.Errorf("prompt %s: neither its default nor empty orders parse: %v", p.ID, errs[0])
		}
	}
	return engine.Answer{Prompt: p, Orders: orders, Default: def},
		AnswerRecord{Prompt: p, Text: engine.OrdersText(orders), Default: def}, nil
}

func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// playBots answers, one submission per transaction, every open prompt of a
// bot seat that has no answer yet, until no bot is asked anything or the
// service's bot step limit is reached.
func (s *Service) playBots(ctx context.Context, id string, hooks []Hook) error {
	for i := 0; i < s.botSteps; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		in, ok, err := s.nextBotInput(ctx, id)
		if err != nil || !ok {
			return err
		}
		res, err := s.submit(ctx, in, hooks)
		if errors.Is(err, errStaleBot) {
			continue // answered or resolved meanwhile: look again
		}
		if err != nil {
			return fmt.Errorf("bot %s in game %s: %w", in.Player, id, err)
		}
		if !res.Accepted {
			return fmt.Errorf("bot %s in game %s sent orders its own rules reject: %v", in.Player, id, res.Errors)
		}
	}
	return nil
}

func (s *Service) nextBotInput(ctx context.Context, id string) (Input, bool, error) {
	var in Input
	found := false
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil || g.Over() {
			return err
		}
		for _, p := range g.Prompts {
			if !botAnswers(g, p) {
				continue
			}
			pl, _ := g.PlayerByName(p.Player)
			rs, st, err := s.loadState(b, g)
			if err != nil {
				return err
			}
			text := rs.Bot(st.View(pl.Name), p, botRand(g, p))
			in = Input{Game: id, Player: pl.Name, Prompt: p.ID, Text: text, Source: "bot", botAt: &botState{g.Epoch, g.Step}}
			found = true
			return nil
		}
		return nil
	})
	return in, found, err
}

// botAnswers reports whether prompt p of g is a bot's to answer now: a
// blocking prompt of a bot seat without orders yet.
func botAnswers(g *Game, p engine.Prompt) bool {
	pl, _ := g.PlayerByName(p.Player)
	return pl.Bot && p.Kind.Blocks() && !contains(g.Answered, p.ID)
}

// botRand gives a bot a generator of its own, fixed by the game, step and
// prompt, so a bot game plays the same way twice.
func botRand(g *Game, p engine.Prompt) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s:%s:%d:%d:%s", g.DiceSecret, g.ID, g.Epoch, g.Step, p.ID)
	return rand.New(rand.NewPCG(h.Sum64(), 0x0badc0ffee))
}

// decodeEntry reads one log entry.
func decodeEntry(v []byte) (*Entry, error) {
	var e Entry
	if err := engine.DecodeJSON(v, &e); err != nil {
		return nil, fmt.Errorf("read log entry: %w", err)
	}
	return &e, nil
}

// Check parses orders exactly as Submit would, against the player's view of
// the game now, and stores nothing.
func (s *Service) Check(ctx context.Context, in Input) (*SubmitResult, error) {
	res := &SubmitResult{}
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, in.Game)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		res.Game = g
		pl, ok := g.PlayerByName(in.Player)
		if !ok {
			return userErr(lang.M("there is no player %q in game %s", in.Player, g.ID))
		}
		if res.Prompt, err = pickPrompt(g, pl.Name, in.Prompt); err != nil {
			return err
		}
		_, st, err := s.loadState(b, g)
		if err != nil {
			return err
		}
		if in.Prompt == "" {
			res.Prompt = anytimeFirst(g, st, pl.Name, res.Prompt, in.Text)
		}
		orders, errs := st.View(pl.Name).Parse(res.Prompt, in.Text)
		res.Errors = errs
		if len(errs) == 0 {
			res.Accepted = true
			res.Orders = append([]string(nil), orders.Lines()...)
			res.Anytime = anytimeLines(g, st, pl.Name, res.Prompt, res.Orders)
		}
		return nil
	})
	return res, err
}
