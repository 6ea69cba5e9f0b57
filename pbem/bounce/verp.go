package bounce

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"net/mail"
	"net/textproto"
	"strings"

	"orrery/engine/store"
)

// VERP (variable envelope return path) names each mail we send in its
// envelope sender, LOCAL+b-TOKEN@DOMAIN, so that the DSN answering it is
// addressed to the one mail it reports on. TOKEN is the mail's outbox
// sequence number and the first macLen bytes of HMAC-SHA256 of it under a
// server key, in lower-case base32: nobody without the key can make a
// token, and a DSN that does not arrive at one counts for nothing,
// whatever Message-ID it quotes. What a DSN says is the reporting
// server's word, and anyone can write one; the address it was delivered
// to is ours.
//
// The mailbox must take the +addresses as its own (Postfix's
// recipient_delimiter, Gmail, Fastmail, Outlook.com's plus addressing);
// where it cannot, bounces.verp: off falls back to the quoted Message-ID.
type VERP struct {
	Key []byte
	// Local and Domain are the address's parts around the tag (by
	// default the bot's From address's); Delimiter is what the mailbox
	// takes as the start of a detail ("+").
	Local, Delimiter, Domain string
}

// verpTag starts the detail: "b-" for bounce, so that other details of
// the same mailbox are not read as tokens.
const verpTag = "b-"

// macLen is how many bytes of the HMAC a token keeps: 80 bits, far more
// than anyone can guess by sending DSNs.
const macLen = 10

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// MaxLocalLen is the longest local part RFC 5321 allows.
const MaxLocalLen = 64

// LocalLen is the length of the local part of a VERP address made with
// local and delim, at the longest (the largest sequence number).
func LocalLen(local, delim string) int {
	return len(local) + len(delim) + len(verpTag) + b32.EncodedLen(binary.MaxVarintLen64+macLen)
}

// Address is the envelope sender of the mail numbered seq.
func (v VERP) Address(seq uint64) string {
	return v.Local + v.Delimiter + verpTag + v.token(seq) + "@" + v.Domain
}

func (v VERP) token(seq uint64) string {
	var buf [binary.MaxVarintLen64 + macLen]byte
	n := binary.PutUvarint(buf[:], seq)
	copy(buf[n:], v.mac(buf[:n]))
	return strings.ToLower(b32.EncodeToString(buf[:n+macLen]))
}

func (v VERP) mac(seq []byte) []byte {
	m := hmac.New(sha256.New, v.Key)
	m.Write([]byte("orrery-verp\x00"))
	m.Write(seq)
	return m.Sum(nil)[:macLen]
}

// Seq returns the sequence number of the mail whose VERP address addr
// is, and false when addr is not one of ours or its token is not valid.
// Case is ignored: some servers fold it.
func (v VERP) Seq(addr string) (uint64, bool) {
	if len(v.Key) == 0 {
		return 0, false
	}
	addr = strings.Trim(strings.TrimSpace(addr), "<>")
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], v.Domain) {
		return 0, false
	}
	prefix := v.Local + v.Delimiter + verpTag
	local := addr[:at]
	if len(local) <= len(prefix) || !strings.EqualFold(local[:len(prefix)], prefix) {
		return 0, false
	}
	tok := strings.ToUpper(local[len(prefix):])
	if len(tok) > b32.EncodedLen(binary.MaxVarintLen64+macLen) {
		return 0, false
	}
	raw, err := b32.DecodeString(tok)
	if err != nil || len(raw) <= macLen {
		return 0, false
	}
	seq, n := binary.Uvarint(raw)
	if n <= 0 || n != len(raw)-macLen {
		return 0, false
	}
	if !hmac.Equal(raw[n:], v.mac(raw[:n])) {
		return 0, false
	}
	// One spelling a mail: base32's unused last bits, or a
	// sequence number written long, would give one mail many tokens.
	if v.token(seq) != strings.ToLower(tok) {
		return 0, false
	}
	return seq, true
}

// verpKeyName is the server key's name in mail/verp.
var verpKeyName = []byte("key")

// VERPKey returns the server key of VERP tokens, kept in the database
// (mail/verp/key) so that every daemon on one database makes and reads
// the same tokens and a restart keeps them. With create set it is made
// (32 random bytes) when there is none yet, inside tx; without, nil is
// returned then.
func VERPKey(tx store.Tx, create bool) ([]byte, error) {
	return store.MailKey(tx, store.BucketMailVERP, verpKeyName, create)
}

// maxHeader bounds how much of a mail's header EnvelopeRecipients reads.
const maxHeader = 64 << 10

// EnvelopeRecipients returns the addresses a mail says it was delivered
// to, as the receiving side writes them, in the order to trust them:
// Delivered-To (Dovecot's LMTP writes the address of the delivery, +detail
// and all, above everything else; Postfix's local delivery too), then
// X-Original-To (Postfix's virtual and local delivery), then To (the DSN's
// own, which a reporting server addresses to the envelope sender). Only
// the header is read.
func EnvelopeRecipients(raw []byte) []string {
	if len(raw) > maxHeader {
		raw = raw[:maxHeader]
	}
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		raw = raw[:i+4]
	} else if i := bytes.Index(raw, []byte("\n\n")); i >= 0 {
		raw = raw[:i+2]
	}
	h, _ := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw))).ReadMIMEHeader()
	var out []string
	for _, name := range []string{"Delivered-To", "X-Original-To", "To"} {
		for _, v := range h.Values(name) {
			if list, err := mail.ParseAddressList(v); err == nil {
				for _, a := range list {
					out = append(out, a.Address)
				}
			} else if v = strings.Trim(strings.TrimSpace(v), "<>"); v != "" {
				out = append(out, v)
			}
			if len(out) >= 8 {
				return out
			}
		}
	}
	return out
}
