package daemon

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/pbem/bounce"
	"orrery/pbem/inmail"
	"orrery/pbem/policy"
	"orrery/pbem/route"
)

// words holds the classifier of each ruleset's order language, and one of
// every ruleset's words together for mail that names no game.
type words struct {
	byRuleset map[string]*route.Classifier
	all       *route.Classifier
}

func newWords(rulesets []engine.Ruleset) *words {
	w := &words{byRuleset: map[string]*route.Classifier{}}
	var allV, allK []string
	for _, rs := range rulesets {
		v, k := engine.OrderWords(rs)
		w.byRuleset[rs.Info().Name] = route.NewClassifier(v, k)
		allV, allK = append(allV, v...), append(allK, k...)
	}
	w.all = route.NewClassifier(allV, allK)
	return w
}

func (w *words) forRuleset(name string) *route.Classifier {
	if c, ok := w.byRuleset[name]; ok {
		return c
	}
	return w.all
}

// Verdict is what the daemon would do with one mail: what `orrery mail
// check` prints. Lines are numbered as in the mail, quotes included.
type Verdict struct {
	Reply   bool          `json:"reply"` // the mail would be answered at all
	Why     string        `json:"why"`   // why (not), in a sentence
	From    string        `json:"from"`
	Game    string        `json:"game"`
	Secret  string        `json:"secret,omitempty"`
	Orders  []VerdictLine `json:"orders"`
	Ignored []VerdictLine `json:"ignored"`
	Errors  []VerdictErr  `json:"errors"`
	// AuthResults says which Authentication-Results header sender
	// authentication would read, and why it is believed or not
	// (policy.ReadResults, with the config's auth_serv_id; without one,
	// only Daemon.Inspect's sender check says that none is read).
	AuthResults string `json:"auth_results,omitempty"`
	// Routing is what the database says (Daemon.Inspect only).
	Routing *Routing `json:"routing,omitempty"`
	// OrdersFor says what the orders are for when not for the current
	// step: "preview" (PREVIEW: tried, never sent), "turn N" or "the next
	// turn" (ORDERS game TURN n / NEXT: held for it); "" otherwise.
	OrdersFor string `json:"orders_for,omitempty"`
}

// VerdictLine is a line of the mail.
type VerdictLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// VerdictErr is an error with its line, as a refusal would list it.
type VerdictErr struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	Msg  string `json:"msg"`
	Fix  string `json:"fix"`
}

// Routing is the part of a verdict that needs the database and the config.
type Routing struct {
	GameFound bool   `json:"game_found"`
	Ruleset   string `json:"ruleset,omitempty"`
	Player    string `json:"player,omitempty"` // the seat the sender would act for
	// Auth is the secret's verdict (policy.Kind: "accepted", "missing
	// secret"…), Sender the sender authentication's (DMARC), Stale why
	// the orders would be held ("" for current).
	Auth   string `json:"auth"`
	Sender string `json:"sender"`
	Stale  string `json:"stale,omitempty"`
	// Commands are the command lines found, and Applied whether the
	// mail's orders would be accepted (the ruleset checked them).
	Commands []string `json:"commands,omitempty"`
	Accepted bool     `json:"accepted"`
}

// Inspect reads raw as the daemon reads it, with no database: whether it
// would be answered, the sender, the game and secret, and every line read
// as an order, not read, or in error. rulesets give the order words; a
// mail's game is unknown here, so the words of every ruleset are used
// unless ruleset names one.
func Inspect(raw []byte, rulesets []engine.Ruleset, ruleset string, maxText int) *Verdict {
	return InspectWith(raw, rulesets, ruleset, maxText, policy.Config{})
}

// InspectWith is Inspect with the config's sender authentication settings:
// the Authentication-Results header that would be read with pc's
// AuthServID, and the silences pc asks for. It looks nothing up in DNS.
func InspectWith(raw []byte, rulesets []engine.Ruleset, ruleset string, maxText int, pc policy.Config) *Verdict {
	w := newWords(rulesets)
	cls := w.all
	if ruleset != "" {
		cls = w.forRuleset(ruleset)
	}
	v, _, _ := inspect(raw, maxText, route.Options{Classifier: func(string) *route.Classifier { return cls }}, pc)
	return v
}

// inspect is the reading shared by Inspect and Daemon.Inspect.
func inspect(raw []byte, maxText int, opt route.Options, pc policy.Config) (*Verdict, *inmail.Message, *route.Result) {
	v := &Verdict{Orders: []VerdictLine{}, Ignored: []VerdictLine{}, Errors: []VerdictErr{}}
	m, perr := inmail.Parse(raw, inmail.Options{MaxText: maxText})
	if m == nil {
		v.Why = fmt.Sprintf("not answered: the header cannot be read (%v)", perr)
		return v, nil, nil
	}
	v.From = game.CanonAddress(m.From)
	if pc.AuthServID != "" {
		v.AuthResults = policy.ReadResults(m.AuthResults, pc.AuthServID).Why
	}
	if rep, err := bounce.Parse(raw); isDSN(m.ReportType) && err == nil {
		var what []string
		for _, rc := range rep.Recipients {
			if k := rc.Kind(); k != bounce.None {
				what = append(what, fmt.Sprintf("a %s bounce of %s (%s)", k, rc.Address(), rc.Status))
			}
		}
		if len(what) == 0 {
			what = append(what, "no bounce")
		}
		v.Why = fmt.Sprintf("not answered: a delivery status notification about mail %s, %s; counted, once for that mail, if it was delivered to the bounce (VERP) address of a mail of ours (with bounces.verp off: if that is a mail of ours and the report's sender passes sender_auth)",
			rep.MessageID, strings.Join(what, ", "))
		if rep.MessageID == "" {
			v.Why = fmt.Sprintf("not answered: a delivery status notification, %s, about a mail it does not name: not counted", strings.Join(what, ", "))
		}
		return v, m, nil
	}
	if c, err := bounce.ParseARF(raw); isComplaint(m.ReportType) && err == nil {
		v.Why = fmt.Sprintf("not answered: a feedback report (%s, from %s) about mail %s; a complaint (abuse, fraud) stops the optional mail to the address that mail went to, if it carries the bounce (VERP) address of a mail of ours (with bounces.verp off: if that is a mail of ours and the report's sender passes sender_auth)",
			c.FeedbackType, cmp.Or(c.UserAgent, "an unnamed feedback loop"), cmp.Or(c.MessageID, "(none named)"))
		return v, m, nil
	}
	if why := policy.Silence(m, pc); why != "" {
		v.Why = "not answered: " + why
		return v, m, nil
	}
	v.Reply = true
	switch {
	case m.Oversize:
		v.Why = "answered with the size limit: the text is too long to read"
		return v, m, nil
	case perr != nil:
		v.Why = "answered with a refusal: " + perr.Error()
		return v, m, nil
	}
	r := route.Route(m, opt)
	v.Game, v.Secret = r.Game, r.Secret
	v.OrdersFor = ordersFor(r)
	for _, l := range r.OrderLines {
		v.Orders = append(v.Orders, VerdictLine{Line: l.N, Text: l.Text})
	}
	for _, l := range r.Ignored {
		v.Ignored = append(v.Ignored, VerdictLine{Line: l.N, Text: l.Text})
	}
	for _, e := range r.Errors {
		v.Errors = append(v.Errors, VerdictErr{Line: e.Line, Text: e.Text, Msg: e.Msg, Fix: e.Fix})
	}
	var cmds []string
	for _, c := range r.Commands {
		cmds = append(cmds, string(c.Name))
	}
	switch {
	case len(r.Errors) > 0:
		v.Why = "answered with a refusal: the mail itself has errors, so nothing in it is applied"
	case r.Empty() && r.Game != "":
		v.Why = "empty orders for game " + r.Game + " (a pass where the rules allow one)"
	case !r.HasOrders && len(r.Commands) == 0 && len(r.Ignored) > 0 && r.Game != "":
		v.Why = "answered with 'no orders found': no line of it reads as an order"
	case !r.HasOrders && len(r.Commands) == 0:
		v.Why = "answered with HELP: it asks for nothing"
	case r.HasOrders && len(cmds) > 0:
		v.Why = fmt.Sprintf("orders for game %s, and commands %s", r.Game, strings.Join(cmds, ", "))
	case r.HasOrders:
		v.Why = "orders for game " + r.Game
	default:
		v.Why = "commands " + strings.Join(cmds, ", ")
	}
	if r.OrdersFrom != "" {
		v.Why += " (the orders are in " + r.OrdersFrom + ")"
	}
	return v, m, r
}

// Inspect is Inspect with the daemon's database and settings: the game and
// its ruleset, the seat the sender would act for and the secret's verdict,
// the sender's authentication (DMARC, with the configured resolver),
// whether the orders would be held as stale, and the ruleset's errors.
// It changes nothing.
func (d *Daemon) Inspect(ctx context.Context, raw []byte) (*Verdict, error) {
	byID := &gameIndex{ctx: ctx, svc: d.svc, seen: map[string]*game.Game{}}
	v, m, r := inspect(raw, d.cfg.MaxText, d.routeOptions(byID), d.cfg.Policy)
	if m == nil || r == nil || !v.Reply {
		return v, nil
	}
	rt := &Routing{}
	v.Routing = rt
	sv := policy.CheckSender(ctx, raw, m, d.cfg.Policy, d.cfg.Resolver, false)
	rt.Sender = sv.Why
	if sv.AuthResults != "" {
		v.AuthResults = sv.AuthResults
	}
	if sv.Refuse {
		v.Reply, v.Why = false, "not answered, nothing applied: "+sv.Why
	}
	for _, c := range r.Commands {
		rt.Commands = append(rt.Commands, string(c.Name))
	}
	g := byID.get(r.Game)
	if g == nil {
		if r.Game != "" {
			rt.Auth = fmt.Sprintf("there is no game %q here", r.Game)
		}
		return v, nil
	}
	rt.GameFound, rt.Ruleset = true, g.Ruleset
	a := policy.Authenticate(g, game.CanonAddress(m.From), r.Secret, d.relax(g.ID))
	rt.Auth = a.Kind.String()
	if a.Kind != policy.Accepted {
		return v, nil
	}
	rt.Player = a.Player.Name
	if !r.HasOrders {
		return v, nil
	}
	j := &job{m: m}
	if why, _ := d.staleReason(ctx, j, g, a.Player, r.Orders); why != "" {
		rt.Stale = map[string]string{"step": "written before the current step began", "rollback": "written before a rollback",
			"copy": "the same orders, answering the same report, were applied before"}[why]
		v.Why = "orders held as a possibly stale copy: " + rt.Stale
		return v, nil
	}
	res, err := d.svc.Check(ctx, game.Input{Game: g.ID, Player: a.Player.Name, Text: r.Orders, Source: "mail"})
	if err != nil {
		if game.IsUserError(err) {
			v.Errors = append(v.Errors, VerdictErr{Msg: err.Error()})
			return v, nil
		}
		return nil, err
	}
	rt.Accepted = res.Accepted
	for _, e := range res.Errors {
		line := e.Line
		if r.OrdersFrom == "" && line > 0 {
			line = r.Line(line)
		}
		v.Errors = append(v.Errors, VerdictErr{Line: line, Text: e.Text, Msg: e.Msg, Fix: e.Fix})
	}
	return v, nil
}
