package game

import (
	"fmt"
	"sort"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
)

// DiceScheme is the dice scheme (dice.Scheme1, dice.Scheme2) of the games
// this build sets up. Each game records its own at setup, and every later
// step, replay and verify of it uses that one.
const DiceScheme = dice.Scheme2

// Scheme is the dice scheme g rolls under: a game that recorded none was set
// up before schemes were numbered, under scheme 1.
func (g *Game) Scheme() int {
	if g.DiceScheme == 0 {
		return dice.Scheme1
	}
	return g.DiceScheme
}

// hiddenSeed is HMAC-SHA256(dice secret, "ID:EPOCH:STEP"). Under scheme 1
// it is the step's seed, revealed after the step; under scheme 2 it stays
// secret until the game ends, and the step's seed is its SHA-256.
func (g *Game) hiddenSeed(step uint64) string {
	return dice.StepSeed([]byte(g.DiceSecret), fmt.Sprintf("%s:%d:%d", g.ID, g.Epoch, step))
}

// stepDice returns the dice of step n, rolled from the step's inputs
// (parts, scheme 2), and the part of the step's record they fix: its seed,
// commitment, inputs, digest and roll seed. The caller adds the rolls and
// streams (Dice.Rolls, Dice.Streams) once the step is resolved.
func (g *Game) stepDice(n uint64, parts []dice.Part) (*dice.Dice, *StepRecord) {
	seed := g.seed(n)
	rec := &StepRecord{N: n, Seed: seed, Commitment: dice.Commitment(seed)}
	if g.Scheme() < dice.Scheme2 {
		return dice.New(seed), rec
	}
	hidden := g.hiddenSeed(n)
	rec.Inputs = parts
	rec.Digest = dice.Digest(parts)
	rec.RollSeed = dice.RollSeed(seed, rec.Digest)
	digest := rec.Digest
	return dice.NewStreams(rec.RollSeed, func(key string) string { return dice.StreamSeed(hidden, digest, key) }), rec
}

// setupParts are the inputs of step 0 under scheme 2: the seats in the
// order the GM gave them and the options, all public.
func (g *Game) setupParts(s engine.Setup) []dice.Part {
	if g.Scheme() < dice.Scheme2 {
		return nil
	}
	p := dice.Part{Head: "setup " + s.GameID}
	for _, name := range s.Players {
		p.Lines = append(p.Lines, "player "+name)
	}
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.Lines = append(p.Lines, "option "+k+"="+s.Options[k])
	}
	return []dice.Part{p.Sealed()}
}

// answerParts are the inputs of step n under scheme 2: one part for each
// answer the step resolves, in seat order (then in the order of the
// prompts), headed "PLAYER PROMPT sent" or "PLAYER PROMPT default". An
// answer the state does not declare public (engine.PublicOrders, asked
// before Resolve) is hidden: salted, and readable by its player alone until
// the game ends.
func (g *Game) answerParts(st engine.State, n uint64, answers []engine.Answer, records []AnswerRecord) []dice.Part {
	if g.Scheme() < dice.Scheme2 {
		return nil
	}
	seat := map[string]int{}
	for i, p := range g.Players {
		seat[p.Name] = i
	}
	order := make([]int, len(records))
	for i := range order {
		order[i] = i
	}
	rank := func(i int) int {
		if k, ok := seat[records[i].Prompt.Player]; ok {
			return k
		}
		return len(g.Players)
	}
	sort.SliceStable(order, func(a, b int) bool { return rank(order[a]) < rank(order[b]) })
	pub, _ := st.(engine.PublicOrders)
	hidden := g.hiddenSeed(n)
	parts := make([]dice.Part, 0, len(records))
	for _, i := range order {
		rec := records[i]
		how := "sent"
		if rec.Default {
			how = "default"
		}
		p := dice.Part{Head: rec.Prompt.Player + " " + rec.Prompt.ID + " " + how}
		if rec.Text != "" {
			p.Lines = strings.Split(rec.Text, "\n")
		}
		if pub == nil || !pub.OrdersPublic(answers[i]) {
			p.Hidden, p.To, p.Salt = true, []string{rec.Prompt.Player}, dice.Salt(hidden, rec.Prompt.ID)
		}
		parts = append(parts, p.Sealed())
	}
	return parts
}

// sent is an accepted submission as the last-orders rule sees it: the log
// sequence of the latest one for a prompt, and how many were accepted for
// it since the prompt was last resolved.
type sent struct {
	seq   uint64
	count int
}

// lastOrders names the player whose orders came in last among those the
// step used (records), and says whether that player replaced earlier orders
// after every other player's were in: what a player who knows the dice
// secret (a GM who plays) would do to choose the rolls, made visible. A
// default is in from the start (everyone knows it).
func lastOrders(records []AnswerRecord, subs map[string]sent) (string, bool) {
	last, top := "", uint64(0)
	for _, r := range records {
		if s, ok := subs[r.Prompt.ID]; ok && !r.Default && s.seq > top {
			last, top = r.Prompt.Player, s.seq
		}
	}
	if last == "" {
		return "", false
	}
	othersIn := uint64(0)
	for _, r := range records {
		if s, ok := subs[r.Prompt.ID]; ok && !r.Default && r.Prompt.Player != last && s.seq > othersIn {
			othersIn = s.seq
		}
	}
	for _, r := range records {
		if s, ok := subs[r.Prompt.ID]; ok && !r.Default && r.Prompt.Player == last && s.count > 1 && s.seq > othersIn {
			return last, true
		}
	}
	return last, false
}

// epochOf finds the epoch in which the step of rec was played: a rollback
// keeps the steps before it, played in earlier epochs, with their seeds.
func epochOf(g *Game, rec *StepRecord) int {
	gg := *g
	for e := g.Epoch; e > 0; e-- {
		gg.Epoch = e
		if gg.seed(rec.N) == rec.Seed {
			return e
		}
	}
	return 0
}
