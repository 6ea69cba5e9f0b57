package daemon

import (
	"context"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/pbem/policy"
	"orrery/pbem/route"
	"orrery/templates"
)

// ping answers PING: how the sender's mail reached the server, as the
// daemon read it (issue 41). A player whose mail is refused, or whose
// reports land in spam, can see why without asking the operator: the
// address the daemon saw, the SPF/DKIM/DMARC verdicts, whether this
// server accepts such mail under its sender_auth, and the address to add
// to their contacts. A refused mail gets no answer at all (it would go to
// a forged address), so the answer itself says the mail was accepted.
func (d *Daemon) ping(_ context.Context, j *job, _ *route.Result, _ route.Command, _ *gameIndex) error {
	m := pingMsg(j.from, bareAddress(d.cfg.From), d.cfg.Policy.SenderAuth, j.verdict)
	data := d.mailer.data(nil, game.Player{}, nil)
	data.Notice = &game.Notice{Kind: "ping", Text: m.English(), Msg: &m}
	return d.say(j, templates.Notice, data)
}

// pingMsg words the answer to PING. Each sentence after the first
// carries the ones before it as its first argument: a message id of its
// own words (a bare "%s %s" would match every sentence written elsewhere
// in English, and the catalog would translate it as one).
func pingMsg(from, bot string, mode policy.SenderAuth, v policy.Verdict) lang.Msg {
	out := lang.M("Your mail reached me from %s.", from)
	switch {
	case mode == "" || mode == policy.AuthOff:
		out = lang.M("%s This server does not check senders by SPF, DKIM or DMARC (sender_auth off): the secret in the subject proves that a mail is yours.", out)
	case v.Domain == "":
		out = lang.M("%s Your From address has no domain I could check.", out)
	case v.Aligned:
		out = lang.M("%s It is authenticated: %s vouches for your domain %s, as DMARC asks.", out, v.By, v.Domain)
	default:
		out = lang.M("%s No DKIM signature or SPF result aligned with your domain %s vouches for it.", out, v.Domain)
	}
	if mode != "" && mode != policy.AuthOff && v.Domain != "" {
		if v.Policy != "" {
			out = lang.M("%s Your domain publishes the DMARC policy p=%s.", out, v.Policy)
		} else {
			out = lang.M("%s Your domain publishes no DMARC policy.", out)
		}
	}
	if v.Why != "" {
		out = lang.M("%s What I read: %s.", out, v.Why)
	}
	if v.AuthResults != "" {
		out = lang.M("%s Your mail's Authentication-Results: %s.", out, v.AuthResults)
	}
	out = lang.M("%s Under this server's rule (sender_auth %s) I accept your mail; with a seat's secret it acts for that seat.", out, string(policyName(mode)))
	return lang.M("%s Add %s to your contacts, so that my reports are not filtered as spam.", out, bot)
}

func policyName(mode policy.SenderAuth) policy.SenderAuth {
	if mode == "" {
		return policy.AuthOff
	}
	return mode
}
