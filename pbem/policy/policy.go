// Package policy holds the mail daemon's rules of conduct as pure functions:
// which mails must never be answered (loops, autoresponders and
// backscatter), whether the sender is who the From address says (DMARC:
// CheckSender), and whether a sender may act for a seat of a game
// (address and secret).
//
// Keeping them pure keeps every rule in one table test; the daemon supplies
// the state (rate limits, the once-a-day reply to strangers) around them.
package policy

import (
	"crypto/subtle"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

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
	// Authentication-Results header ("mx.example.org"): the SPF result in
	// the topmost such header counts towards DMARC alignment. Empty: only
	// DKIM signatures, verified here, can vouch for a sender, since anyone
	// can write that header.
	AuthServID string
	// SenderAuth is how the From address is authenticated (CheckSender);
	// "" is AuthOff.
	SenderAuth SenderAuth
}

// Validate names the first inconsistent setting.
func (c Config) Validate() error {
	switch c.SenderAuth {
	case "", AuthOff, AuthDMARC, AuthStrict:
		return nil
	}
	return fmt.Errorf("sender authentication must be off, dmarc or strict, not %q", c.SenderAuth)
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
	case m.AutoReply != "":
		return m.AutoReply + " (an automatic reply)"
	case m.ReportType != "":
		return fmt.Sprintf("a %s report (a bounce or a receipt)", m.ReportType)
	case autoSubject.MatchString(m.Subject):
		return "its subject is an autoresponder's (an out-of-office or a bounce)"
	case local == "mailer-daemon" || local == "postmaster":
		return fmt.Sprintf("sender %s is a mail system", m.From)
	case strings.HasPrefix(local, "owner-") || strings.HasSuffix(local, "-request") || strings.HasSuffix(local, "-bounces"):
		return fmt.Sprintf("sender %s is a mailing list robot", m.From)
	case strings.Contains(local, "noreply") || strings.Contains(local, "no-reply") || strings.Contains(local, "donotreply") || strings.Contains(local, "do-not-reply"):
		return fmt.Sprintf("sender %s takes no replies", m.From)
	case !Answerable(from):
		// An answer to it would fail at RCPT TO, or make the SMTP server
		// drop the connection and the other mails sent on it.
		return "the sender's address is not one mail can be sent to (RFC 5321: at most 64 characters before the @, 254 in all, no spaces (outside quotes) or control characters)"
	}
	for _, own := range c.Own {
		if game.SameAddress(own, from) {
			return "sent by ourselves"
		}
	}
	if c.OwnMessageIDSuffix != "" && strings.HasSuffix(strings.ToLower(m.MessageID), strings.ToLower(c.OwnMessageIDSuffix)) {
		return fmt.Sprintf("Message-ID %s is one of ours", m.MessageID)
	}
	return ""
}

// Answerable reports whether mail can be sent to addr as SMTP takes it
// (RFC 5321 4.5.3.1): a local part of 1 to 64 octets, a domain with a
// dot, 254 octets in all, no angle brackets or control characters, and
// no spaces outside a quoted local part. A 40 KB address in a From made the SMTP server reset the
// connection, and every mail queued behind the answer failed with it.
func Answerable(addr string) bool {
	at := strings.LastIndexByte(addr, '@')
	if at < 1 || len(addr) > 254 || at > 64 || !strings.Contains(addr[at+1:], ".") {
		return false
	}
	quoted := strings.HasPrefix(addr, `"`) && strings.HasSuffix(addr[:at], `"`) && at > 1
	for i, r := range addr {
		if r == ' ' && quoted && i < at {
			continue // "ann smith"@example.org
		}
		if r <= ' ' || r == 0x7f || r == '<' || r == '>' || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}

// autoSubject matches the subjects autoresponders and bounces put in front
// of the subject they answer, in the languages of the mail clients our
// players use. Only the start of the subject counts, so that "Re: away
// for a week" from a person is answered.
var autoSubject = regexp.MustCompile(`(?i)^\s*(` +
	`auto(matic|matische|matisk)?[ -]?(reply|response|answer|antwort|svar)\b|autoreply|autorespon|` +
	`auto:|out of (the )?office\b|ooo:|away:|abwesenheitsnotiz|` +
	`r[ée]ponse automatique|respuesta autom[áa]tica|fuera de la oficina|` +
	`автоответ|автоматический ответ|вне офиса|` +
	`undeliverable:|undelivered mail|delivery status notification|mail delivery (failed|subsystem)|returned mail|` +
	`delivery failure|failure notice|unzustellbar|non remis|не доставлено|` +
	`read:|gelesen:|lu :|прочитано:)`)

// Person is the one person behind addr (game.CanonAddress) when it comes
// to OBSERVE, JOIN and the replies to strangers: the address with any
// +tag taken off its local part, since ann+1@example.org and
// ann+2@example.org are one mailbox, and one person takes one seat and
// one stranger's budget. In the domains listed in distinct (compared after
// IDNA), + is part of the mailbox's name, and the address is the person.
func Person(addr string, distinct []string) string {
	a := game.CanonAddress(addr)
	at := strings.LastIndexByte(a, '@')
	if at < 0 {
		return a
	}
	local, domain := a[:at], a[at+1:]
	for _, d := range distinct {
		if game.CanonAddress("x@"+d) == "x@"+domain {
			return a
		}
	}
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	return local + "@" + domain
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

// LogValue logs k by its name: slog's JSON handler would write the number
// of the constant, which nobody reading the log can decode.
func (k Kind) LogValue() slog.Value { return slog.StringValue(k.String()) }

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
