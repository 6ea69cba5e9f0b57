package web

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// ReportFormat names the version of the JSON report documents
// (/g/ID/report.json, /g/ID/step/N.json). A field is only ever added within
// a version; a change of meaning or a removal raises it.
const ReportFormat = "orrery-web-report/1"

// ReportDoc is one step's report as one reader got it, as JSON: the public
// report on public pages, a seat's own on its private page.
type ReportDoc struct {
	Format  string `json:"format"`
	Game    string `json:"game"`
	Ruleset string `json:"ruleset"`
	Title   string `json:"title"`
	// Player is the seat of a private report; Public marks the public one.
	Player string    `json:"player,omitempty"`
	Public bool      `json:"public"`
	Step   uint64    `json:"step"`
	Turn   int       `json:"turn"`
	Phase  string    `json:"phase"`
	Reason string    `json:"reason"`
	Time   time.Time `json:"time"`
	// Board and Status are the text forms a mail shows.
	Board    string    `json:"board"`
	Status   string    `json:"status"`
	Events   []string  `json:"events"`
	Rolls    []RollDoc `json:"rolls"`
	Defaults []string  `json:"defaults,omitempty"` // seats that played by default
	// Hands are the seats played at this step by someone other than their
	// first player: "seat bob, played by eve", or by the bot (HandDoc).
	Hands []HandDoc `json:"hands,omitempty"`
	Dice  DiceDoc   `json:"dice"`
	// Latest is set on the report of the game's latest step, which alone
	// has prompts (a private report's), who is awaited and the deadline.
	Latest   bool           `json:"latest"`
	Prompts  []PromptDoc    `json:"prompts,omitempty"`
	Waiting  []string       `json:"waiting,omitempty"`
	Deadline *time.Time     `json:"deadline,omitempty"`
	Outcome  engine.Outcome `json:"outcome"`
	// Press is what the seat sent or got while this step was the latest
	// (private reports only).
	Press []PressDoc `json:"press,omitempty"`
}

// HandDoc is a seat that changed hands: By is who plays it, or Bot. On a
// public page By is only a name the player gave or was given, absent
// for one with none ("a new player").
type HandDoc struct {
	Seat string `json:"seat"`
	By   string `json:"by,omitempty"`
	Bot  bool   `json:"bot,omitempty"`
}

// RollDoc is one die as reports show it.
type RollDoc struct {
	N       int    `json:"n"`
	Sides   int    `json:"sides"`
	Value   int    `json:"value"`
	Purpose string `json:"purpose"`
	// Stream is the key of the hidden dice the roll came from (scheme 2:
	// "ann" for the dice only ann sees, numbered on their own); empty for
	// a public roll.
	Stream string `json:"stream,omitempty"`
}

// DiceDoc is what checks a step's dice: the seed revealed with the step,
// the commitment published before it, the commitment to the next step's
// seed, and once the game is over the dice secret every seed derives from.
// Under scheme 2 also the step's inputs as the reader may see them (every
// part's head and hash; the salt and lines of the reader's own secret
// parts and of public ones; all of them once the game is over), their
// digest, the seed of the public rolls, the seeds of the hidden dice the
// reader may see, the hidden seed once the game is over, and who sent the
// step's last orders.
type DiceDoc struct {
	Scheme         string      `json:"scheme"`
	Seed           string      `json:"seed"`
	Commitment     string      `json:"commitment"`
	NextCommitment string      `json:"next_commitment,omitempty"`
	Secret         string      `json:"secret,omitempty"`
	Inputs         []PartDoc   `json:"inputs,omitempty"`
	Digest         string      `json:"digest,omitempty"`
	RollSeed       string      `json:"roll_seed,omitempty"`
	Streams        []StreamDoc `json:"streams,omitempty"`
	HiddenSeed     string      `json:"hidden_seed,omitempty"`
	LastOrders     string      `json:"last_orders,omitempty"`
	LastResent     bool        `json:"last_resent,omitempty"`
}

// PartDoc is one input of a step's dice (scheme 2). Its hash is the
// SHA-256 of the head, "salt SALT" for a secret part, and each line, every
// one ending in a newline. Sealed marks a secret part whose salt and lines
// the reader may not see yet: its hash enters the digest alone.
type PartDoc struct {
	Head   string   `json:"head"`
	Secret bool     `json:"secret,omitempty"`
	Sealed bool     `json:"sealed,omitempty"`
	Salt   string   `json:"salt,omitempty"`
	Lines  []string `json:"lines,omitempty"`
	Hash   string   `json:"hash"`
}

// StreamDoc is the seed of the hidden dice of one audience in a step
// (scheme 2): the rolls whose stream is Key.
type StreamDoc struct {
	Key  string   `json:"key"`
	To   []string `json:"to"`
	Seed string   `json:"seed"`
}

// PromptDoc is what is asked of the seat now.
type PromptDoc struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Ask     string `json:"ask"`
	Default string `json:"default,omitempty"`
	Blocks  bool   `json:"blocks"`
}

// PressDoc is one press message as the seat may see it (From is empty for
// grey press the seat did not send).
type PressDoc struct {
	Time time.Time `json:"time"`
	From string    `json:"from,omitempty"`
	To   []string  `json:"to"`
	Text string    `json:"text"`
}

func (s *Site) reportDoc(ctx context.Context, g *game.Game, v viewer, n uint64) (*ReportDoc, error) {
	rep, err := s.cfg.Service.StepReport(ctx, g.ID, n, v.player())
	if err != nil {
		return nil, err
	}
	d := &ReportDoc{Format: ReportFormat, Game: rep.Game, Ruleset: rep.Ruleset, Title: rep.Title, Player: v.seat, Public: v.seat == "",
		Step: rep.Step, Turn: rep.Turn, Phase: rep.Phase, Reason: rep.Reason, Board: rep.Board, Status: rep.Status,
		Events: append([]string{}, rep.Events...), Rolls: []RollDoc{}, Defaults: rep.Defaults, Outcome: rep.Outcome,
		Dice:   DiceDoc{Scheme: SchemeOf(g), Seed: rep.RevealedSeed, Commitment: rep.RevealedCommitment, Secret: rep.DiceSecret},
		Latest: n == g.Step}
	if !rep.Outcome.Over {
		d.Dice.NextCommitment = rep.NextCommitment
	}
	for _, h := range rep.Hands {
		d.Hands = append(d.Hands, HandDoc{Seat: h.Seat, By: h.By, Bot: h.Bot})
	}
	for _, r := range rep.Rolls {
		d.Rolls = append(d.Rolls, RollDoc{N: r.N, Sides: r.Sides, Value: r.Value, Purpose: r.Purpose, Stream: r.Stream})
	}
	d.Dice.Digest, d.Dice.RollSeed, d.Dice.HiddenSeed = rep.Digest, rep.RollSeed, rep.HiddenSeed
	d.Dice.LastOrders, d.Dice.LastResent = rep.LastOrders, rep.LastResent
	for _, p := range rep.Inputs {
		d.Dice.Inputs = append(d.Dice.Inputs, PartDoc{Head: p.Head, Secret: p.Hidden, Sealed: !readable(p), Salt: p.Salt, Lines: p.Lines, Hash: p.Hash})
	}
	for _, st := range rep.Streams {
		d.Dice.Streams = append(d.Dice.Streams, StreamDoc{Key: st.Key, To: st.To, Seed: st.Seed})
	}
	_, steps, err := s.cfg.Service.Steps(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	d.Time = stepTime(steps, n)
	if d.Latest && !g.Over() {
		d.Waiting = rep.Waiting
		if !g.Deadline.IsZero() {
			t := g.Deadline.UTC()
			d.Deadline = &t
		}
		if v.seat != "" {
			for _, p := range rep.Prompts {
				d.Prompts = append(d.Prompts, PromptDoc{ID: p.ID, Kind: p.Kind.String(), Ask: p.Ask, Default: p.Default, Blocks: p.Kind.Blocks()})
			}
		}
	}
	if v.seat != "" {
		for _, p := range rep.Press {
			d.Press = append(d.Press, PressDoc{Time: p.Time, From: p.From, To: p.To, Text: p.Text})
		}
	}
	return d, nil
}

func jsonBody(d any) ([]byte, string, error) {
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, "", err
	}
	return append(data, '\n'), "application/json; charset=utf-8", nil
}

func pageReportJSON(ctx context.Context, s *Site, g *game.Game, v viewer, _ links, _ uint64, _ string) ([]byte, string, error) {
	if g.Signup {
		m := lang.M("game %s has not started: %d of %d seats taken", g.ID, len(g.Players), g.Seats)
		return nil, "", &game.UserError{Msg: m.English(), Why: &m}
	}
	d, err := s.reportDoc(ctx, g, v, g.Step)
	if err != nil {
		return nil, "", err
	}
	return jsonBody(d)
}

func pageStepJSON(ctx context.Context, s *Site, g *game.Game, v viewer, _ links, n uint64, _ string) ([]byte, string, error) {
	d, err := s.reportDoc(ctx, g, v, n)
	if err != nil {
		return nil, "", err
	}
	return jsonBody(d)
}

// FeedSize is how many of the latest steps the Atom feed carries.
const FeedSize = 30

type atomFeed struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	// Lang is the language of the feed's text (xml:lang, RFC 4287 2).
	Lang    string      `xml:"http://www.w3.org/XML/1998/namespace lang,attr,omitempty"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Author  atomAuthor  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Link    atomLink    `xml:"link"`
	Content atomContent `xml:"content"`
}

type atomContent struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

func pageFeed(ctx context.Context, s *Site, g *game.Game, v viewer, l links, _ uint64, abs string) ([]byte, string, error) {
	return s.feed(ctx, g, l, abs, v.tag)
}

// feed is the game's Atom feed: one entry per step, the latest FeedSize,
// each with the public events and a link to the step's page, worded in
// tag as a public page is (the same rule chooses it). base makes links
// absolute ("" in an archive, whose links stay relative).
func (s *Site) feed(ctx context.Context, g *game.Game, l links, base string, tag lang.Tag) ([]byte, string, error) {
	if tag == "" || !s.speaks(tag) {
		tag = lang.English
	}
	v := viewer{tag: tag}
	gi := s.info(g, "")
	// The step records alone: a feed does not draw thirty boards.
	_, steps, err := s.cfg.Service.Facts(ctx, g.ID, game.Observer)
	if err != nil {
		return nil, "", err
	}
	host := "orrery.invalid"
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	id := fmt.Sprintf("tag:%s,%s:%s", host, g.Created.UTC().Format("2006-01-02"), g.ID)
	f := atomFeed{Lang: string(tag), ID: id, Title: fmt.Sprintf("%s — %s", g.ID, gi.Title), Author: atomAuthor{Name: "Orrery"},
		Updated: g.Created.UTC().Format(time.RFC3339),
		Links: []atomLink{{Rel: "self", Type: "application/atom+xml", Href: base + l.Feed()},
			{Rel: "alternate", Type: "text/html", Href: base + l.Game()}}}
	if len(steps) > 0 {
		f.Updated = steps[len(steps)-1].Time.UTC().Format(time.RFC3339)
	}
	rs, _ := engine.Find(s.cfg.Service.Rulesets(), g.Ruleset)
	for i := len(steps) - 1; i >= 0 && len(f.Entries) < FeedSize; i-- {
		si := steps[i]
		over := g.Over() && si.N == g.Step
		// The step's words as its page has them: its events' messages
		// (or, recorded without, the ruleset's translation) and its
		// phase, written for the reader as a report is.
		rep := &game.Report{Phase: si.Phase, Events: si.Events, EventMsgs: si.EventMsgs}
		if over {
			rep.Outcome = g.Outcome
		}
		if s.cfg.Localize != nil && tag != lang.English {
			rep = s.cfg.Localize(rep, rs, tag, time.UTC)
		}
		title := lang.M("Step %d: turn %d", int(si.N), si.Turn)
		if rep.Phase != "" {
			title = lang.M("Step %d: turn %d, %s", int(si.N), si.Turn, rep.Phase)
		}
		if over {
			title = lang.M("%s — game over", title)
		}
		var text strings.Builder
		for _, e := range rep.Events {
			text.WriteString("- " + e + "\n")
		}
		if len(rep.Events) == 0 {
			text.WriteString(s.say(v, lang.M("(no public events)")) + "\n")
		}
		if over && rep.Outcome.Text != "" {
			text.WriteString("\n" + s.say(v, lang.M("Game over: %s", rep.Outcome.Text)) + "\n")
		}
		f.Entries = append(f.Entries, atomEntry{ID: fmt.Sprintf("%s/%d/%d", id, g.Epoch, si.N), Title: s.say(v, title),
			Updated: si.Time.UTC().Format(time.RFC3339),
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: base + l.Step(si.N)},
			Content: atomContent{Type: "text", Text: text.String()}})
	}
	data, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, "", err
	}
	return append([]byte(xml.Header), append(data, '\n')...), "application/atom+xml; charset=utf-8", nil
}
