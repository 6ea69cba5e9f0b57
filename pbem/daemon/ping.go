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

// pingMsg words the answer to PING.
func pingMsg(from, bot string, mode policy.SenderAuth, v policy.Verdict) lang.Msg {
	saw := lang.M("Your mail reached me from %s.", from)
	var auth, pol, read, results lang.Msg
	switch {
	case mode == "" || mode == policy.AuthOff:
		auth = lang.M("This server does not check senders by SPF, DKIM or DMARC (sender_auth off): the secret in the subject proves that a mail is yours.")
	case v.Domain == "":
		auth = lang.M("Your From address has no domain I could check.")
	case v.Aligned:
		auth = lang.M("It is authenticated: %s vouches for your domain %s, as DMARC asks.", v.By, v.Domain)
	default:
		auth = lang.M("No DKIM signature or SPF result aligned with your domain %s vouches for it.", v.Domain)
	}
	if mode != "" && mode != policy.AuthOff && v.Domain != "" {
		if v.Policy != "" {
			pol = lang.M("Your domain publishes the DMARC policy p=%s.", v.Policy)
		} else {
			pol = lang.M("Your domain publishes no DMARC policy.")
		}
	}
	if v.Why != "" {
		read = lang.M("What I read: %s", v.Why)
	}
	if v.AuthResults != "" {
		results = lang.M("Authentication-Results: %s", v.AuthResults)
	}
	accept := lang.M("Under this server's rule (sender_auth %s) I accept your mail; with a seat's secret it acts for that seat.", string(policyName(mode)))
	contact := lang.M("Add %s to your contacts, so that my reports are not filtered as spam.", bot)
	out := lang.M("%s %s", saw, auth)
	for _, m := range []lang.Msg{pol, read, results, accept, contact} {
		if m.ID != "" {
			out = lang.M("%s %s", out, m)
		}
	}
	return out
}

func policyName(mode policy.SenderAuth) policy.SenderAuth {
	if mode == "" {
		return policy.AuthOff
	}
	return mode
}
