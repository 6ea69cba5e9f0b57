package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"

	"orrery/engine/game"
	"orrery/engine/store"
)

// A private page's address carries a capability token: the first 128 bits
// of HMAC-SHA256(server key, "orrery-web\x00GAME\x00SEAT\x00SECRET"), in
// base64url. The server key is 32 random bytes kept in the database
// (mail/web/token-key), so nobody outside the server can make a token, and a
// token tells nothing of the seat's secret (which would let its holder send
// orders). The seat's secret is part of the input: when the GM gives the seat
// to someone else, or kicks its player, or a player resigns, engine/game
// issues a new secret and every earlier link of that seat stops working,
// with no list of tokens to keep in step.

var tokenKeyName = []byte("token-key")

// tokenKey returns the server key, making it inside tx (which must then be
// a write transaction) the first time.
func tokenKey(tx store.Tx) ([]byte, error) {
	return store.MailKey(tx, store.BucketMailWeb, tokenKeyName, true)
}

// readTokenKey returns the server key, or nil when none was made yet (no
// private link was ever mailed, so none can be valid).
func readTokenKey(tx store.Tx) []byte {
	k, _ := store.MailKey(tx, store.BucketMailWeb, tokenKeyName, false)
	return k
}

func token(key []byte, gameID, seat, secret string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("orrery-web\x00" + gameID + "\x00" + seat + "\x00" + secret))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// Token returns the capability token of seat p of game g, making the server
// key inside tx on first use. The mail side calls it in the transaction
// that queues a report, to put the private page's link in the mail.
func Token(tx store.Tx, g *game.Game, p game.Player) (string, error) {
	if p.Secret == "" {
		return "", errors.New("a seat without a secret has no private page")
	}
	k, err := tokenKey(tx)
	if err != nil {
		return "", err
	}
	if k == nil {
		return "", errors.New("no key for private pages yet, and a read-only transaction cannot make one")
	}
	return token(k, g.ID, p.Name, p.Secret), nil
}

// PrivateLink returns a function that gives the address of a seat's
// private page under base ("https://games.example.org"), for the mail
// side's report mails (daemon.Config.WebLink).
func PrivateLink(base string) func(tx store.Tx, g *game.Game, p game.Player) (string, error) {
	return func(tx store.Tx, g *game.Game, p game.Player) (string, error) {
		t, err := Token(tx, g, p)
		if err != nil {
			return "", err
		}
		return trimBase(base) + "/g/" + g.ID + "/p/" + t, nil
	}
}

// seatOf finds whose token tok is. Every seat's token is computed and
// compared in constant time, and the loop does not stop at a match, so
// the time taken says nothing about how much of a guess was right.
func seatOf(key []byte, g *game.Game, tok string) (string, bool) {
	if key == nil || len(tok) != 22 {
		return "", false
	}
	found := ""
	for _, p := range g.Players {
		if p.Secret == "" {
			continue
		}
		want := token(key, g.ID, p.Name, p.Secret)
		if subtle.ConstantTimeCompare([]byte(want), []byte(tok)) == 1 {
			found = p.Name
		}
	}
	return found, found != ""
}
