// Package unsub is one-click unsubscribe (RFC 2369, RFC 8058) with a game's
// meaning: the List-Unsubscribe and List-Unsubscribe-Post headers of every
// mail that is not a direct answer to the reader's own, the List-Id of
// per-game mail (RFC 2919), and the token that authenticates an
// unsubscribe request without a cookie, a login or a form.
//
// Gmail and Yahoo ask bulk senders for one-click unsubscribe, and a reader
// who finds no way out presses "spam", which is what gets a domain's mail
// refused. Unsubscribing is never a silent stop for a seated player (the
// daemon decides what it does, pbem/daemon's unsubscribe.go): an observer
// stops observing, a reminder's reader gets no more reminders, a seated
// player's reports go to the daily digest.
//
// A token is "PAYLOAD.MAC": PAYLOAD is the base64url of the address, the
// game and what the mail was, MAC the first 128 bits of HMAC-SHA256 of
// the payload under a server key of 32 random bytes kept in the database
// (mail/web/unsub-key). Nobody without the key can make one, one reader's
// token acts for that reader only, and no table of tokens is kept: the
// token says everything the action needs.
package unsub

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"

	"orrery/engine/store"
)

// What is what kind of mail the token came with, which the action takes
// as its first guess of what the reader wants to stop.
type What string

// The kinds of mail.
const (
	Observer  What = "observer"  // an observer's report or notice: stop observing
	Reminders What = "reminders" // a reminder or late notice: no more of them
	Reports   What = "reports"   // a player's report, notice or digest: the daily digest
)

// Ask is what one token asks for.
type Ask struct {
	Addr string // the reader's address, bare
	Game string // "" for a digest (every game)
	What What
}

var keyName = []byte("unsub-key")

// Key returns the server key, making it inside tx (a write transaction)
// the first time; nil, nil in a read-only tx before any was made.
func Key(tx store.Tx) ([]byte, error) { return store.MailKey(tx, store.BucketMailWeb, keyName, true) }

// ReadKey returns the server key, or nil when none was made (no mail ever
// carried a token, so none can be valid).
func ReadKey(tx store.Tx) []byte {
	k, _ := store.MailKey(tx, store.BucketMailWeb, keyName, false)
	return k
}

func mac(key []byte, payload string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("orrery-unsub\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// Token is the token of a.
func Token(key []byte, a Ask) string {
	p := base64.RawURLEncoding.EncodeToString([]byte(strings.ToLower(a.Addr) + "\x00" + a.Game + "\x00" + string(a.What)))
	return p + "." + mac(key, p)
}

// ErrToken is a token this server did not make.
var ErrToken = errors.New("this unsubscribe link is not one of mine, or was cut short")

// MaxToken bounds the token read: an address is at most 254 characters.
const MaxToken = 512

// Parse checks tok against key and returns what it asks.
func Parse(key []byte, tok string) (Ask, error) {
	p, m, ok := strings.Cut(tok, ".")
	if !ok || len(key) == 0 || len(tok) > MaxToken || !hmac.Equal([]byte(m), []byte(mac(key, p))) {
		return Ask{}, ErrToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return Ask{}, ErrToken
	}
	f := strings.Split(string(raw), "\x00")
	if len(f) != 3 || !strings.Contains(f[0], "@") {
		return Ask{}, ErrToken
	}
	switch What(f[2]) {
	case Observer, Reminders, Reports:
	default:
		return Ask{}, ErrToken
	}
	return Ask{Addr: f[0], Game: f[1], What: What(f[2])}, nil
}

// Path is where the web side takes a one-click POST: Path + TOKEN.
const Path = "/unsubscribe/"

// Subject is the first word of the subject of a mailto: unsubscribe
// ("UNSUBSCRIBE TOKEN"): what the daemon looks for in a mail's subject.
const Subject = "UNSUBSCRIBE"

// Headers are the List-Unsubscribe header of a mail with token tok: a
// mailto: URI to bot (which works without the web pages) and, when web is
// the pages' address, an https: one; and List-Unsubscribe-Post, set only
// with a web URI (RFC 8058 3.1: the POST goes to the HTTPS URI).
func Headers(bot, web, tok string) (list, post string) {
	q := url.Values{"subject": {Subject + " " + tok}}
	// Spaces as %20: mail clients read a mailto: as RFC 6068, not a form.
	mailto := "mailto:" + bot + "?" + strings.ReplaceAll(q.Encode(), "+", "%20")
	list = "<" + mailto + ">"
	if web != "" {
		list = "<" + strings.TrimRight(web, "/") + Path + tok + ">, " + list
		post = "List-Unsubscribe=One-Click"
	}
	return list, post
}

// ListID is the List-Id of game's mail: "<GAME.orrery.DOMAIN>" (RFC 2919),
// a name mail clients filter on.
func ListID(game, domain string) string {
	return "<" + strings.ToLower(game) + ".orrery." + strings.ToLower(domain) + ">"
}

// DigestListID is the List-Id of the daily digest, which gathers every
// game an address follows: "<daily.digest.orrery.DOMAIN>". A game id holds
// no dot, so no game's list has this name.
func DigestListID(domain string) string {
	return "<daily.digest.orrery." + strings.ToLower(domain) + ">"
}
