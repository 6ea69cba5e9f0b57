// Package bounce reads the delivery status notifications (DSN, RFC 3464) a
// mail system sends back when it could not deliver one of our mails, and
// keeps each address's count of bounces.
//
// A DSN is a multipart/report with report-type=delivery-status: a part
// for people, a message/delivery-status part (one block of fields about
// the message, then one block per recipient: Final-Recipient, Action,
// Status, Diagnostic-Code…), and the returned message or its headers
// (message/rfc822, text/rfc822-headers), whose Message-ID says which of
// our mails bounced. Postfix, Exim, Exchange and Gmail all send this shape
// (testdata/dsn holds one of each, as those servers write them); the
// internationalised forms of RFC 6533 (message/global-delivery-status,
// message/global, message/global-headers) are read the same way.
//
// A recipient whose Action is "failed" with a 5.x.x Status is a hard
// bounce (no such user, mailbox disabled, mailbox full for good); "failed"
// with a 4.x.x Status (retried until the sender gave up) and "delayed" are
// soft. "delivered", "relayed" and "expanded" are not bounces.
package bounce

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/mail"
	"slices"
	"strings"

	"github.com/emersion/go-message"

	"orrery/engine/game"
)

// ErrNotDSN is Parse's answer for a mail that is not a delivery status
// notification.
var ErrNotDSN = errors.New("not a delivery status notification")

// maxPart bounds how much of one part is read: a DSN's report is a few
// hundred bytes; a returned message may be large, and only its header is
// wanted.
const maxPart = 256 << 10

// maxBlocks bounds the field blocks read of a report: ours go to one
// recipient each, and a real report names a few; one that names
// thousands is forged, and reading them all was work for nothing.
const maxBlocks = 50

// maxField bounds one field's value, continuation lines and all.
const maxField = 1 << 10

// Report is what a DSN says.
type Report struct {
	// ReportingMTA is the mail system that wrote it ("dns; mx.example.org").
	ReportingMTA string
	// Recipients are the report's recipient blocks, the first
	// maxBlocks of them at most.
	Recipients []Recipient
	// MessageID is the Message-ID of the mail it reports on, without
	// angle brackets: from the returned message's header, else from the
	// report's own fields (Gmail's X-Original-Message-ID), else from the
	// DSN's In-Reply-To or References. Subject and To are the returned
	// message's, when it came back.
	MessageID string
	Subject   string
	To        []string
}

// Recipient is one recipient's block of the report.
type Recipient struct {
	Final, Original string // bare addresses
	Action          string // failed, delayed, delivered, relayed, expanded (lower case)
	Status          string // "5.1.1"
	Diagnostic      string // the remote server's words: "smtp; 550 5.1.1 User unknown"
	RemoteMTA       string
}

// Kind is what a recipient's block says of its mailbox.
type Kind int

const (
	// None: delivered, relayed, expanded, or unreadable.
	None Kind = iota
	// Soft: delayed, or given up after temporary failures (4.x.x).
	Soft
	// Hard: failed for good (5.x.x).
	Hard
)

func (k Kind) String() string { return [...]string{"none", "soft", "hard"}[k] }

// LogValue logs k by its name, not as the number slog's JSON handler
// would write.
func (k Kind) LogValue() slog.Value { return slog.StringValue(k.String()) }

// Kind classifies r (see the package comment).
func (r Recipient) Kind() Kind {
	switch r.Action {
	case "failed":
		if strings.HasPrefix(r.Status, "4") {
			return Soft
		}
		return Hard
	case "delayed":
		return Soft
	}
	return None
}

// Address is the recipient's address: Original-Recipient when it is an
// address, else Final-Recipient (a forwarder may rewrite the final one).
func (r Recipient) Address() string {
	if r.Original != "" {
		return r.Original
	}
	return r.Final
}

// openReport reads raw as a multipart/report of reportType, the one kind
// of mail Parse and ParseARF read; anything else is notErr.
func openReport(raw []byte, reportType string, notErr error) (*message.Entity, error) {
	e, err := message.Read(bytes.NewReader(raw))
	if e == nil {
		return nil, fmt.Errorf("%w: %v", notErr, err)
	}
	mt, params, _ := e.Header.ContentType()
	if mt != "multipart/report" || !strings.EqualFold(params["report-type"], reportType) {
		return nil, notErr
	}
	return e, nil
}

// reportParts reads, each to maxPart, the first part of e whose type is
// one of types (the report's machine-readable part) and the first part
// that returns the mail reported on, whole or its header only; err is
// what stopped the walk, if anything did.
func reportParts(e *message.Entity, types ...string) (report, returned []byte, err error) {
	err = e.Walk(func(_ []int, part *message.Entity, _ error) error {
		if part == nil {
			return nil
		}
		pt, _, _ := part.Header.ContentType()
		switch pt {
		case "message/rfc822", "text/rfc822-headers", "message/global", "message/global-headers":
			if returned == nil {
				returned, _ = io.ReadAll(io.LimitReader(part.Body, maxPart))
			}
		default:
			if report == nil && slices.Contains(types, pt) {
				report, _ = io.ReadAll(io.LimitReader(part.Body, maxPart))
			}
		}
		return nil
	})
	return report, returned, err
}

// Parse reads raw as a DSN. It returns ErrNotDSN for anything else (an
// out-of-office, a read receipt, a person's mail), and an error wrapping
// it for a report whose delivery-status part is missing or says nothing.
func Parse(raw []byte) (*Report, error) {
	e, err := openReport(raw, "delivery-status", ErrNotDSN)
	if err != nil {
		return nil, err
	}
	r := &Report{}
	status, returned, walkErr := reportParts(e, "message/delivery-status", "message/global-delivery-status")
	if walkErr != nil && status == nil {
		return nil, fmt.Errorf("%w: unreadable report: %v", ErrNotDSN, walkErr)
	}
	if status == nil {
		return nil, fmt.Errorf("%w: a delivery-status report without its message/delivery-status part", ErrNotDSN)
	}
	blocks := fieldBlocks(status, maxBlocks)
	if len(blocks) == 0 {
		return nil, fmt.Errorf("%w: an empty message/delivery-status part", ErrNotDSN)
	}
	for i, b := range blocks {
		if i == 0 && b.get("final-recipient") == "" {
			r.ReportingMTA = b.get("reporting-mta")
			if id := b.get("x-original-message-id"); id != "" {
				r.MessageID = bareID(id)
			}
			continue
		}
		if b.get("final-recipient") == "" && b.get("original-recipient") == "" {
			continue
		}
		r.Recipients = append(r.Recipients, Recipient{
			Final:      typedAddress(b.get("final-recipient")),
			Original:   typedAddress(b.get("original-recipient")),
			Action:     strings.ToLower(firstWord(b.get("action"))),
			Status:     statusCode(b.get("status")),
			Diagnostic: b.get("diagnostic-code"),
			RemoteMTA:  b.get("remote-mta"),
		})
	}
	if len(r.Recipients) == 0 {
		return nil, fmt.Errorf("%w: the report names no recipient", ErrNotDSN)
	}
	if returned != nil {
		if !bytes.Contains(returned, []byte("\n\n")) && !bytes.Contains(returned, []byte("\r\n\r\n")) {
			returned = append(returned, "\r\n\r\n"...) // headers alone
		}
		if m, err := mail.ReadMessage(bytes.NewReader(returned)); err == nil {
			if id := m.Header.Get("Message-Id"); id != "" {
				r.MessageID = bareID(id)
			}
			dec := new(mime.WordDecoder)
			if s, err := dec.DecodeHeader(m.Header.Get("Subject")); err == nil {
				r.Subject = s
			} else {
				r.Subject = m.Header.Get("Subject")
			}
			if to, err := m.Header.AddressList("To"); err == nil {
				for _, a := range to {
					r.To = append(r.To, game.CanonAddress(a.Address))
				}
			}
		}
	}
	if r.MessageID == "" {
		// Gmail and Exchange also thread their report under the mail.
		for _, h := range []string{"In-Reply-To", "References"} {
			if ids := strings.Fields(e.Header.Get(h)); len(ids) > 0 {
				r.MessageID = bareID(ids[len(ids)-1])
				break
			}
		}
	}
	return r, nil
}

// block is one group of "Name: value" fields, names lower-cased.
type block map[string]string

func (b block) get(name string) string { return b[name] }

// fieldBlocks splits a delivery-status body into its blocks: fields
// separated by blank lines, continuation lines (starting with space or
// tab) joined to the field they continue. It stops after limit blocks.
func fieldBlocks(body []byte, limit int) []block {
	var out []block
	cur := block{}
	last := ""
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur, last = block{}, ""
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), maxPart)
	for len(out) < limit && sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case (line[0] == ' ' || line[0] == '\t') && last != "":
			// A field is kept to maxField bytes: thousands of
			// continuation lines joined one by one cost the square.
			if len(cur[last]) < maxField {
				cur[last] += " " + strings.TrimSpace(line)
			}
		default:
			name, value, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			last = strings.ToLower(strings.TrimSpace(name))
			if _, seen := cur[last]; !seen {
				cur[last] = strings.TrimSpace(value)
			}
		}
	}
	if len(out) < limit {
		flush()
	}
	return out
}

// typedAddress reads "rfc822; bob@example.org" (the address type is
// any case, the space optional, the address maybe in angle brackets) as
// the bare address, in its one form (game.CanonAddress).
func typedAddress(v string) string {
	if v == "" {
		return ""
	}
	if typ, addr, ok := strings.Cut(v, ";"); ok {
		if !strings.EqualFold(strings.TrimSpace(typ), "rfc822") && !strings.EqualFold(strings.TrimSpace(typ), "utf-8") {
			return ""
		}
		v = addr
	}
	v = strings.Trim(strings.TrimSpace(v), "<>")
	if !strings.Contains(v, "@") {
		return ""
	}
	return game.CanonAddress(v)
}

// statusCode is the "n.n.n" that starts a Status field.
func statusCode(v string) string {
	w := firstWord(v)
	if len(w) >= 5 && (w[0] == '2' || w[0] == '4' || w[0] == '5') && w[1] == '.' {
		return w
	}
	return ""
}

func firstWord(v string) string {
	f := strings.Fields(v)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimRight(f[0], ";,")
}

func bareID(id string) string {
	return strings.Trim(strings.TrimSpace(id), "<>")
}
