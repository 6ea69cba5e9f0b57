// Package policy holds the mail daemon's rules of conduct as pure functions:
// which mails must never be answered (loops and backscatter), whether the
// receiving server vouched for the sender (Authentication-Results), and
// whether a sender may act for a seat of a game (address and secret).
//
// Keeping them pure keeps every rule in one table test; the daemon supplies
// the state (rate limits, the once-a-day reply to strangers) around them.
package policy

import (
	"crypto/subtle"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/authres"

	"orrery/engine/game"
	"orrery/pbem/inmail"
)

// Config is the daemon's identity and its demands on incoming mail.
type Config struct {
	// Own lists the daemon's own addresses: mail from them is never
	// answered, whatever it says.
	Own []string
	// OwnMessageIDSuffix, such as "@orrery.example.org", ends every
	// Message-ID the daemon generates; a mail carrying one is our own
	// mail come back (a forwarding loop) and is never answered.
	OwnMessageIDSuffix string
	// AuthServID is the authserv-id our receiving server writes in its
	// Authentication-Results header ("mx.example.org"). Empty: the header
	// is not consulted, since anyone can write one.
	AuthServID string
	// RequireDKIM, RequireSPF and RequireDMARC demand a "pass" for that
	// method in our server's Authentication-Results. They need AuthServID.
	RequireDKIM, RequireSPF, RequireDMARC bool
}

// Validate names the first inconsistent setting.
func (c Config) Validate() error {
	if (c.RequireDKIM || c.RequireSPF || c.RequireDMARC) && c.AuthServID == "" {
		return fmt.Errorf("requiring DKIM, SPF or DMARC needs auth_serv_id: the authserv-id your receiving server writes in Authentication-Results")
	}
	return nil
}

// Silence says why m must not be answered at all, or "" when it may be.
// These mails are automatic (auto-replies, bounces, lists) or our own: an
// answer would start a mail loop or send backscatter to a forged address.
func Silence(m *inmail.Message, c Config) string {
	from := strings.ToLower(strings.TrimSpace(m.From))
	local := from
	if i := strings.LastIndexByte(from, '@'); i >= 0 {
		local = from[:i]
	}
	switch {
	case from == "":
		return "no sender address"
	case m.AutoSubmitted != "" && m.AutoSubmitted != "no":
		return fmt.Sprintf("Auto-Submitted: %s (an automatic mail)", m.AutoSubmitted)
	case m.Precedence == "bulk" || m.Precedence == "junk" || m.Precedence == "list":
		return fmt.Sprintf("Precedence: %s", m.Precedence)
	case m.ListID != "":
		return fmt.Sprintf("List-Id: %s (a mailing list)", m.ListID)
	case m.NullSender:
		return "empty return path <> (a bounce)"
	case local == "mailer-daemon" || local == "postmaster":
		return fmt.Sprintf("sender %s is a mail system", m.From)
	case strings.HasPrefix(local, "owner-") || strings.HasSuffix(local, "-request") || strings.HasSuffix(local, "-bounces"):
		return fmt.Sprintf("sender %s is a mailing list robot", m.From)
	case strings.Contains(local, "noreply") || strings.Contains(local, "no-reply") || strings.Contains(local, "donotreply") || strings.Contains(local, "do-not-reply"):
		return fmt.Sprintf("sender %s takes no replies", m.From)
	}
	for _, own := range c.Own {
		if strings.EqualFold(strings.TrimSpace(own), from) {
			return "sent by ourselves"
		}
	}
	if c.OwnMessageIDSuffix != "" && strings.HasSuffix(strings.ToLower(m.MessageID), strings.ToLower(c.OwnMessageIDSuffix)) {
		return fmt.Sprintf("Message-ID %s is one of ours", m.MessageID)
	}
	return ""
}

// CheckAuthResults reads the Authentication-Results our server added (the
// topmost header with our authserv-id; others may be forged by the sender)
// and demands a pass for every method the config requires. It returns nil
// when nothing is required.
func CheckAuthResults(m *inmail.Message, c Config) error {
	if c.AuthServID == "" || !(c.RequireDKIM || c.RequireSPF || c.RequireDMARC) {
		return nil
	}
	for _, h := range m.AuthResults {
		id, results, err := authres.Parse(h)
		if err != nil || !strings.EqualFold(id, c.AuthServID) {
			continue
		}
		pass := map[string]bool{}
		seen := map[string]authres.ResultValue{}
		for _, r := range results {
			var method string
			var v authres.ResultValue
			switch r := r.(type) {
			case *authres.DKIMResult:
				method, v = "dkim", r.Value
			case *authres.SPFResult:
				method, v = "spf", r.Value
			case *authres.DMARCResult:
				method, v = "dmarc", r.Value
			default:
				continue
			}
			if v == authres.ResultPass {
				pass[method] = true // one passing DKIM signature is enough
			} else if _, ok := seen[method]; !ok {
				seen[method] = v
			}
		}
		var failed []string
		for _, req := range []struct {
			on   bool
			name string
		}{{c.RequireDKIM, "dkim"}, {c.RequireSPF, "spf"}, {c.RequireDMARC, "dmarc"}} {
			if req.on && !pass[req.name] {
				v := seen[req.name]
				if v == "" {
					v = "missing"
				}
				failed = append(failed, fmt.Sprintf("%s=%s", req.name, v))
			}
		}
		if len(failed) > 0 {
			return fmt.Errorf("the sender is not authenticated by %s: %s", c.AuthServID, strings.Join(failed, ", "))
		}
		return nil
	}
	return fmt.Errorf("no Authentication-Results from %s: cannot tell whether the sender is genuine", c.AuthServID)
}

// Relax loosens sender authentication for one game (a game among friends,
// or a demo).
type Relax struct {
	// NoSecret accepts a registered address without the secret.
	NoSecret bool
	// AnyAddress accepts the right secret from any address.
	AnyAddress bool
}

// Kind is the outcome of Authenticate.
type Kind int

const (
	// Unknown (the zero value, so that a forgotten check refuses): the
	// address is not registered in the game and no secret
	// fits; answer with the unknown-sender mail (or not at all).
	Unknown Kind = iota
	// Accepted: the sender acts for Auth.Player.
	Accepted
	// MissingSecret: a registered address sent no secret; tell them how.
	MissingSecret
	// WrongSecret: a registered address sent a wrong secret. Answer
	// "wrong secret" to that address (the owner's) and warn the owner
	// that someone may be using it: Notify is set.
	WrongSecret
	// ForeignAddress: the right secret of Auth.Player came from an
	// address that is not theirs. Nothing is applied; the owner is told
	// (Notify) at their registered address, never at the sender's.
	ForeignAddress
)

var kindNames = []string{"unknown sender", "accepted", "missing secret", "wrong secret", "your secret, from an address that is not yours"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Auth is who a mail may act for.
type Auth struct {
	Kind   Kind
	Player game.Player // the seat concerned (zero for Unknown)
	// Notify is set when the seat's owner must be warned at Player.Email.
	Notify bool
}

// Authenticate decides whether from, giving secret, may act for a seat of
// g. Answers always go to the seat's registered address, never to a
// Reply-To, so a forger cannot reflect mail through the daemon.
func Authenticate(g *game.Game, from, secret string, relax Relax) Auth {
	p, registered := g.PlayerByEmail(from)
	secret = strings.TrimSpace(secret)
	switch {
	case registered && secret == "":
		if relax.NoSecret {
			return Auth{Kind: Accepted, Player: p}
		}
		return Auth{Kind: MissingSecret, Player: p}
	case registered && sameSecret(p.Secret, secret):
		return Auth{Kind: Accepted, Player: p}
	case registered:
		return Auth{Kind: WrongSecret, Player: p, Notify: true}
	case secret == "":
		return Auth{Kind: Unknown}
	}
	for _, q := range g.Players {
		if sameSecret(q.Secret, secret) {
			if relax.AnyAddress {
				return Auth{Kind: Accepted, Player: q}
			}
			return Auth{Kind: ForeignAddress, Player: q, Notify: q.Email != ""}
		}
	}
	return Auth{Kind: Unknown}
}

// sameSecret compares in constant time, ignoring case: secrets are read
// back from subjects that some clients change the case of.
func sameSecret(want, got string) bool {
	if want == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.ToLower(want)), []byte(strings.ToLower(got))) == 1
}

// RateLimit caps replies to one address: at most Max in any window of Per.
// A player who mails in a loop (or a forged sender) then gets silence, not
// a flood. The zero value allows everything.
type RateLimit struct {
	Max int
	Per time.Duration
}

// Allow says whether one more reply may go to an address that was sent
// replies at the times in sent (in any order) and now is now.
func (l RateLimit) Allow(sent []time.Time, now time.Time) bool {
	if l.Max <= 0 || l.Per <= 0 {
		return true
	}
	n := 0
	for _, t := range sent {
		if now.Sub(t) < l.Per && !t.After(now) {
			n++
		}
	}
	return n < l.Max
}

// StrangerReplyDue says whether an address in none of our games gets a
// short help reply: at most one per every (the once a day), never
// when every is zero (the operator chose silence). last is the time of the
// previous such reply, zero for none.
func StrangerReplyDue(last, now time.Time, every time.Duration) bool {
	if every <= 0 {
		return false
	}
	return last.IsZero() || now.Sub(last) >= every
}
