package daemon

import (
	"strings"

	"orrery/pbem/metrics"
	"orrery/pbem/policy"
)

// Metrics is the daemon's metrics (nil when metrics are off; every method
// of *metrics.Daemon is safe on nil).
func (d *Daemon) Metrics() *metrics.Daemon { return d.cfg.Metrics }

// observe counts a handled mail once its record has committed: received,
// and then answered, or left unanswered and why, and filed as rejected and
// why. The reasons are a small fixed set, for metric labels; the free text
// of j.why stays in the seen record.
func (d *Daemon) observe(j *job) {
	m := d.cfg.Metrics
	if m == nil {
		return
	}
	m.MailReceived()
	reason := d.reason(j)
	if j.rejected {
		m.MailRejected(reason)
	}
	switch {
	case j.answered:
		m.MailAnswered()
	case j.noReply:
		m.MailSilenced(reason)
	case len(j.answers) > 0 && j.from != "":
		// An answer was written and held back: the sender's hourly
		// allowance, or a stranger's daily one, was spent.
		m.MailSilenced("rate_limit")
	}
}

// reason classifies why j's mail was silenced or rejected.
func (d *Daemon) reason(j *job) string {
	switch {
	case j.m == nil:
		return "unreadable"
	case j.noReply && policy.Silence(j.m, d.cfg.Policy) != "":
		return "automatic"
	case j.noReply:
		return "unauthenticated"
	case j.m.Oversize:
		return "oversize"
	case strings.HasPrefix(j.why, "GM command"):
		return "gm_refused"
	case j.rejected:
		return "unparsable"
	}
	return ""
}
