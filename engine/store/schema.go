package store

import (
	"crypto/rand"
	"fmt"
)

// This file names every bucket and key in an Orrery database, so that the
// layout can be read in one place (as etcd's schema package does). Integer
// keys are big-endian (see Key) so that bbolt's byte order is numeric order.
//
//	meta                      schema → SchemaVersion as a decimal string
//	games                     one nested bucket per game id:
//	  games/<id>/info         → JSON game record (engine/game.record)
//	  games/<id>/state        → the current state, as State.Marshal made it
//	  games/<id>/log/<seq>    → JSON log entry, every input in order (engine/game.Entry)
//	  games/<id>/snaps/<step> → state after that step; step 0 is the setup
//	  games/<id>/steps/<step> → JSON step record: answers, events, rolls, seeds
//	  games/<id>/pending/<prompt id> → JSON latest accepted orders not yet resolved
//	  games/<id>/ahead/<player>\x00<turn> → JSON orders held for a later turn (engine/game.Ahead),
//	                          turn 8-byte big-endian; made by the first ORDERS TURN
//	  games/<id>/log-by-step/<step><seq> → empty: the log entries of each step
//	                          (HISTORY's press, game show --step), both 8-byte big-endian
//	seats/<address>\x00<id>   → empty: the games in which an address (game.CanonAddress) holds a seat
//	game-tags/<tag>\x00<id>   → empty: games by what game list filters on; tags are
//	                          "ruleset=<name>", "open" (JOIN takes a seat), "awaiting"
//	                          (orders missing) and "awaits=<address>"
//	wake/<unix ns><game id>   → empty: when Tick must next look at that game
//	ticks/<game id>           → when Tick last looked at the game and when it must
//	                          look next (its wake key): two 8-byte big-endian unix ns
//	                          (0: never), kept apart from games/<id>/info so that a
//	                          tick that only looks writes 16 bytes, not the record
//	held/<address>\x00<id>    → empty: every game in which the address (game.CanonAddress)
//	                          held a seat, kept after it leaves (the player record)
//	observing/<address>\x00<id> → empty: the games the address observes
//	mail                      owned by the mail side (pbem); see the section below
//
// The indexes (seats, game-tags, wake, held, observing, log-by-step) are derived from the
// games; meta/indexes names the version engine/game built them at, and a
// service that finds another rebuilds them all once (engine/game index.go).
//
// Changing any of this is a schema change: bump SchemaVersion, and teach Open
// to migrate or to refuse older files with a clear message.
//
// Version 2 (this one) replaced version 1's players bucket (address → JSON
// list of game ids, rewritten whole on every change) by seats, and added
// game-tags, log-by-step and mail/outbox-games (held and observing came
// in version 1's last releases, marked by meta/seat-indexes; they are
// rebuilt with the others). Open upgrades a version 1
// file in place: it only bumps the version; the first service to use the
// file builds the indexes, and the outbox its own (pbem/outbox).
//
// Version 3 moved a game's ticked and wake times out of its record into
// ticks. Open upgrades a version 2 file as it does a version 1: older
// records still carry the times, and engine/game reads them there until
// the index rebuild the upgrade asks for has filled ticks.

// SchemaVersion is the layout version this build reads and writes.
const SchemaVersion = 3

// upgradable lists the older versions Open upgrades in place.
var upgradable = map[int]bool{1: true, 2: true}

// Top-level buckets.
var (
	BucketMeta  = []byte("meta")
	BucketGames = []byte("games")
	BucketSeats = []byte("seats")
	BucketTags  = []byte("game-tags")
	BucketWake  = []byte("wake")
	// BucketTicks holds each game's last tick and next wake (engine/game
	// index.go). It is not derived: an index rebuild keeps it.
	BucketTicks = []byte("ticks")
	BucketMail  = []byte("mail")
	// BucketPlayers is version 1's address index, deleted by the first
	// index rebuild.
	BucketPlayers = []byte("players")
	// BucketHeld and BucketObserving index games by address (engine/game
	// seats.go): every game an address ever held a seat in (the player
	// record), and the games it observes. Derived like seats.
	BucketHeld      = []byte("held")
	BucketObserving = []byte("observing")
)

// Keys of the meta bucket.
var (
	KeySchema = []byte("schema")
	// KeyIndexes is the version of the engine's derived indexes.
	KeyIndexes = []byte("indexes")
	// KeyOutboxIndex is the version of mail/outbox-games (pbem/outbox).
	KeyOutboxIndex = []byte("outbox-index")
)

// Keys and nested buckets inside one game's bucket.
var (
	KeyInfo       = []byte("info")
	KeyState      = []byte("state")
	BucketLog     = []byte("log")
	BucketSnaps   = []byte("snaps")
	BucketSteps   = []byte("steps")
	BucketPending = []byte("pending")
	BucketLogStep = []byte("log-by-step")
)

// TopLevel lists the buckets Open creates.
var TopLevel = [][]byte{BucketMeta, BucketGames, BucketSeats, BucketTags, BucketWake, BucketMail, BucketHeld, BucketObserving, BucketTicks}

// ---- mail side (pbem) ----------------------------------------------------
// Nested buckets of BucketMail, created and used by pbem. The engine never
// reads them; they are named here so the whole layout is in one file.
//
//	mail/outbox/<seq>       → outbox.Item: a mail still to send, as queued; JSON
//	                          under 512 bytes, past that S2-compressed JSON with its
//	                          text, HTML and files after it as bytes (pbem/outbox body.go)
//	mail/outbox-state/<seq> → JSON delivery state of that mail: attempts, next
//	                          attempt, owner, last error (none: the item's own,
//	                          as an older Orrery kept it) (pbem/outbox state.go)
//	mail/outbox-sent/<seq>  → JSON outbox.Record of a delivered mail
//	mail/outbox-dead/<seq>  → outbox.Item given up on (5xx, or too old), stored as
//	                          a queued one
//	mail/outbox-games/<game id>\x00<seq> → the mails of a game, for game log:
//	                          empty while the mail is in outbox, outbox-sent or
//	                          outbox-dead; once older than the retention, the
//	                          compact JSON outbox.Record left of it (pbem/outbox)
//	mail/inbox-seen/<key>   → JSON record of a handled message; key is
//	                          "id:<message-id>", "idsha256:<hex>" for a Message-ID
//	                          over 320 bytes, or "sha256:<hex of the raw mail>"
//	mail/inbox-parts/<key>\x00<n> → reply text of a done game-changing part of
//	                          a message (a retry skips it)
//	mail/inbox-uids/<uidvalidity><uid> → message key (both 4-byte big-endian)
//	mail/rate/<address>     → reply times in the last hour (rate limit; as mail/pingpong)
//	mail/unknown/<address>  → RFC 3339 time of the last reply to a stranger
//	mail/web/token-key      → 32 random bytes: the HMAC key of the private
//	                          pages' capability links (pbem/web), made on first use
//	mail/inbox-held/<message-id> → JSON orders held as a possibly stale copy,
//	                          keyed by the Message-ID of the mail that asks
//	                          the player to CONFIRM them
//	mail/inbox-applied/<game>\x00<player>\x00e<epoch>s<step>\x00<sha256> → RFC 3339
//	                          time orders written against that step were applied
//	mail/pingpong/<address>\x00<sha256 of subject>\x00<sha256 of text> → times
//	                          of answers that changed nothing (pbem/daemon ratetimes.go:
//	                          0x01, then 8 bytes of Unix nanoseconds each; JSON before)
//	mail/stranger-budget/<address> (and "\x00all") → JSON replies to strangers today
//	mail/dns-fail/<domain>  → RFC 3339 time DNS first failed for the domain
//	mail/verp/key           → 32 random bytes: the HMAC key of the bounce tokens
//	                          in our envelope senders (pbem/bounce verp.go), made once
//	mail/complaints/<address> → JSON bounce.ComplaintState: the address marked our mail
//	                          as spam (a feedback report): no optional mail goes to it
//	mail/bounces/<address>  → JSON bounce.State: the address's bounces within the
//	                          window, and whether it is unreachable (pbem/bounce)
//	mail/digest/<address>\x00<seq> → JSON news held for the address's daily digest
//	                          (pbem/daemon digest.go)
//	mail/secret-sent/<game>\x00<seat> → JSON times a seat's secret was re-sent (SECRET)
//	mail/press-sent/<game>\x00<seat> → JSON times the seat's press was relayed in the
//	                          last day (limits.press_per_day)
//	mail/settings/<address> → JSON object of a player's settings, key → value
//	                          ({"LANG":"ru","TZ":"Europe/Moscow"}), kept across
//	                          games (pbem/settings)
//	mail/gm-guard/state     → JSON record of refused GM commands: answers in
//	                          the last hour, attempts not yet reported to the GM
//	mail/outbox-owners/<id> → JSON lease of a running outbox worker, whose id
//	                          marks the outbox items it has claimed
//	mail/inbox-queue/<address>/<seq> → JSON mail the reader queued for any daemon
//	                          sharing the database to handle, by sender, seq
//	                          counting arrivals (pbem/daemon queue.go)
//	mail/inbox-queued/<key> → the sender of a queued mail, by message key (as
//	                          inbox-seen's), so that a mail read again is not queued twice
//	mail/inbox-consent/<token> → JSON JOIN or OBSERVE waiting for its confirmation;
//	                          p\x00<person>\x00<game> → the token of a person's pending
//	                          request, m\x00<message-id> → JSON tokens asked in that mail
//	mail/preview/<game>\x00<seat> → JSON count of the PREVIEWs answered for
//	                          the seat in the game's current step (pbem/daemon preview.go)
var (
	BucketMailOutbox      = []byte("outbox")
	BucketMailOutboxSent  = []byte("outbox-sent")
	BucketMailOutboxDead  = []byte("outbox-dead")
	BucketMailOutboxGame  = []byte("outbox-games")
	BucketMailOutboxState = []byte("outbox-state")
	BucketMailSeen        = []byte("inbox-seen")
	BucketMailParts       = []byte("inbox-parts")
	BucketMailUIDs        = []byte("inbox-uids")
	BucketMailRate        = []byte("rate")
	BucketMailUnknown     = []byte("unknown")
	BucketMailWeb         = []byte("web")
	BucketMailHeld        = []byte("inbox-held")
	BucketMailApplied     = []byte("inbox-applied")
	BucketMailPingPong    = []byte("pingpong")
	BucketMailBudget      = []byte("stranger-budget")
	BucketMailDNSFail     = []byte("dns-fail")
	BucketMailSettings    = []byte("settings")
	BucketMailGMGuard     = []byte("gm-guard")
	BucketMailOwners      = []byte("outbox-owners")
	BucketMailConsent     = []byte("inbox-consent")
	BucketMailBounces     = []byte("bounces")
	BucketMailDigest      = []byte("digest")
	BucketMailSecretSent  = []byte("secret-sent")
	BucketMailPressSent   = []byte("press-sent")
	BucketMailQueue       = []byte("inbox-queue")
	BucketMailQueued      = []byte("inbox-queued")
	BucketMailVERP        = []byte("verp")
	BucketMailComplaints  = []byte("complaints")
	BucketMailPreview     = []byte("preview")
)

// MailBucket is the bucket name inside the mail side's top-level bucket
// (BucketMail): made, with BucketMail, when create is set; nil when it is
// not set and the bucket was never made (nothing was kept there yet).
func MailBucket(tx Tx, name []byte, create bool) (Bucket, error) {
	m := tx.Bucket(BucketMail)
	if m == nil {
		if !create {
			return nil, nil
		}
		var err error
		if m, err = tx.CreateBucketIfNotExists(BucketMail); err != nil {
			return nil, err
		}
	}
	if !create {
		return m.Bucket(name), nil
	}
	return m.CreateBucketIfNotExists(name)
}

// MailKey returns the server key called name in the mail bucket sub
// (mail/web/token-key, mail/verp/key…): 32 random bytes, kept in the
// database so that every daemon on one database makes and reads the same
// tokens and a restart keeps them. With create set it is made inside tx
// (a write transaction) when there is none yet; without, or in a
// read-only tx, nil is returned then.
func MailKey(tx Tx, sub, name []byte, create bool) ([]byte, error) {
	if b, err := MailBucket(tx, sub, false); err != nil {
		return nil, err
	} else if b != nil {
		if k := b.Get(name); len(k) > 0 {
			return Copy(k), nil
		}
	}
	if !create || !tx.Writable() {
		return nil, nil
	}
	b, err := MailBucket(tx, sub, true)
	if err != nil {
		return nil, fmt.Errorf("make the bucket of the key %s: %w", name, err)
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("make the key %s: %w", name, err)
	}
	if err := b.Put(name, k); err != nil {
		return nil, err
	}
	return k, nil
}
