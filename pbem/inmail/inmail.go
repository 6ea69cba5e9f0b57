// Package inmail turns a raw RFC 5322 message into what the mail daemon acts
// on: the headers that decide whether and how to answer, and the orders text
// a player typed, with quoted report lines and signatures taken away.
//
// It does no network and keeps no state, so every real-world mail shape can
// be pinned by a golden test (testdata/corpus) and fuzzed. Players write from
// Gmail, Outlook, Apple Mail, Thunderbird and mutt, in HTML or plain text, in
// any charset, top- or bottom-posting: the daemon must understand all of them
// and must never crash on any of them.
package inmail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // windows-1251, KOI8-R, ISO-8859-x… via golang.org/x/text
	gomail "github.com/emersion/go-message/mail"
)

// Defaults for Options.
const (
	DefaultMaxText  = 256 << 10 // bytes of text a player may send
	DefaultMaxDepth = 8         // multipart nesting; real clients use 3 at most
	DefaultMaxParts = 100       // parts walked in one message
)

// Options bound the work done on one mail. The zero value uses the defaults.
type Options struct {
	MaxText  int // text/plain or text/html bytes kept; more sets Oversize
	MaxDepth int // deeper multiparts are ignored, with a note
	MaxParts int // further parts are ignored, with a note

	preferHTML bool // tests: read the HTML alternative to compare it with the plain one
}

func (o Options) withDefaults() Options {
	if o.MaxText <= 0 {
		o.MaxText = DefaultMaxText
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxParts <= 0 {
		o.MaxParts = DefaultMaxParts
	}
	return o
}

// Attachment is a text/plain attachment named like orders ("orders.txt").
type Attachment struct {
	Name string
	Text string // decoded to UTF-8, CRLF turned into LF
}

// Message is a parsed mail. Addresses are bare ("ann@example.org"),
// Message-IDs are without angle brackets.
type Message struct {
	From     string // address of the first From mailbox
	FromName string // its display name, decoded
	ReplyTo  []string
	To       []string
	Subject  string // RFC 2047 decoded
	// MessageID, InReplyTo and References thread the answer.
	MessageID  string
	InReplyTo  []string
	References []string
	Date       time.Time // zero when missing or unreadable
	// Loop and backscatter signals, lowercased; AutoSubmitted keeps only
	// the keyword ("auto-replied"), not its parameters.
	AutoSubmitted string
	Precedence    string
	ListID        string
	// ReturnPath is the envelope sender the receiving server recorded;
	// NullSender is true when it was the empty path "<>" (bounces).
	HasReturnPath bool
	ReturnPath    string
	NullSender    bool
	// AuthResults holds every Authentication-Results header value, the
	// topmost (added last, by our own server) first.
	AuthResults []string
	Size        int // bytes of the raw message

	// Body is the chosen text part as decoded (HTML already turned into
	// text), before quotes and signature were removed.
	Body string
	// BodyType says where Body came from: "text/plain", "text/html" or "".
	BodyType string
	// Text is what the player wrote: Body without quoted lines, reply
	// headers, signature and sign-off (see StripQuotes, StripSignOff). Its lines are the ones error messages number.
	Text string
	// Attachments are text/plain attachments named like orders.
	Attachments []Attachment
	// Oversize is set when the text was longer than Options.MaxText; Body,
	// Text and attachments are then cut and should not be acted on.
	Oversize bool
	// Notes name what was skipped or survived: ignored attachments,
	// unknown charsets, parts beyond the limits. For logs, not for players.
	Notes []string
}

// ErrNoText is wrapped by Parse when a mail has no text part at all.
var ErrNoText = errors.New("the mail has no text part")

// Parse reads raw. On a broken header it returns a nil Message and an error;
// on a broken body it returns the Message with its headers (so the sender can
// still be answered) and an error. It never panics.
func Parse(raw []byte, opt Options) (m *Message, err error) {
	defer func() {
		// go-message is robust, but a mail daemon must not die on one
		// hostile mail whatever a dependency does: report it instead.
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot read this mail (internal error: %v)", r)
		}
	}()
	return parse(raw, opt.withDefaults())
}

func parse(raw []byte, opt Options) (*Message, error) {
	e, err := message.Read(bytes.NewReader(raw))
	m := &Message{Size: len(raw)}
	switch {
	case err == nil:
	case e != nil && message.IsUnknownCharset(err):
		m.note("unknown charset in the top-level part: %v", err)
	case e != nil && message.IsUnknownEncoding(err):
		// The header is sound, so the sender can be told; the body is in
		// an encoding (x-uuencode, say) that no orders should be read from.
		readHeader(m, gomail.Header{Header: e.Header})
		return m, fmt.Errorf("cannot read the text of this mail: its Content-Transfer-Encoding %q is not one of 7bit, 8bit, quoted-printable or base64", e.Header.Get("Content-Transfer-Encoding"))
	default:
		return nil, fmt.Errorf("cannot read the mail header: %w", err)
	}
	readHeader(m, gomail.Header{Header: e.Header})
	w := walker{m: m, opt: opt}
	if err := w.entity(e, 0, false); err != nil {
		return m, err
	}
	switch {
	case w.plain != nil && !(opt.preferHTML && w.html != nil):
		m.Body, m.BodyType = *w.plain, "text/plain"
	case w.html != nil:
		m.Body, m.BodyType = *w.html, "text/html"
	}
	m.Text = StripSignOff(StripQuotes(m.Body), m.FromName)
	if m.BodyType == "" && len(m.Attachments) == 0 {
		return m, fmt.Errorf("cannot find orders: %w", ErrNoText)
	}
	return m, nil
}

func (m *Message) note(format string, a ...any) {
	m.Notes = append(m.Notes, fmt.Sprintf(format, a...))
}

var msgIDRe = regexp.MustCompile(`<([^<>\s]+)>`)

// msgIDs reads a list of Message-IDs leniently: clients get this header
// wrong often enough that a strict parse would lose threading.
func msgIDs(h gomail.Header, key string) []string {
	if ids, err := h.MsgIDList(key); err == nil {
		return ids
	}
	var out []string
	for _, sm := range msgIDRe.FindAllStringSubmatch(h.Get(key), -1) {
		out = append(out, sm[1])
	}
	return out
}

func addresses(h gomail.Header, key string) []*mail.Address {
	list, err := h.AddressList(key)
	if err == nil {
		return list
	}
	// Lenient fallback for headers such as "ann@example.org (Ann)" with
	// odd quoting: take every token that looks like an address.
	var out []*mail.Address
	for _, f := range strings.FieldsFunc(h.Get(key), func(r rune) bool {
		return r == ',' || r == ' ' || r == '<' || r == '>' || r == '"' || r == '\t'
	}) {
		if strings.Count(f, "@") == 1 && !strings.HasPrefix(f, "@") && !strings.HasSuffix(f, "@") {
			out = append(out, &mail.Address{Address: f})
		}
	}
	return out
}

func readHeader(m *Message, h gomail.Header) {
	if from := addresses(h, "From"); len(from) > 0 {
		m.From, m.FromName = from[0].Address, from[0].Name
	}
	for _, a := range addresses(h, "Reply-To") {
		m.ReplyTo = append(m.ReplyTo, a.Address)
	}
	for _, a := range addresses(h, "To") {
		m.To = append(m.To, a.Address)
	}
	if s, err := h.Subject(); err == nil {
		m.Subject = s
	} else {
		m.Subject = h.Get("Subject")
		m.note("subject not decoded: %v", err)
	}
	m.Subject = strings.Join(strings.Fields(m.Subject), " ")
	if ids := msgIDs(h, "Message-Id"); len(ids) > 0 {
		m.MessageID = ids[0]
	}
	m.InReplyTo = msgIDs(h, "In-Reply-To")
	m.References = msgIDs(h, "References")
	if d, err := h.Date(); err == nil {
		m.Date = d
	}
	as := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted")))
	if i := strings.IndexByte(as, ';'); i >= 0 {
		as = strings.TrimSpace(as[:i])
	}
	m.AutoSubmitted = as
	m.Precedence = strings.ToLower(strings.TrimSpace(h.Get("Precedence")))
	m.ListID = strings.TrimSpace(h.Get("List-Id"))
	if h.Has("Return-Path") {
		m.HasReturnPath = true
		rp := strings.TrimSpace(h.Get("Return-Path"))
		rp = strings.TrimSuffix(strings.TrimPrefix(rp, "<"), ">")
		m.ReturnPath = strings.TrimSpace(rp)
		m.NullSender = m.ReturnPath == ""
	}
	fields := h.FieldsByKey("Authentication-Results")
	for fields.Next() {
		m.AuthResults = append(m.AuthResults, strings.Join(strings.Fields(fields.Value()), " "))
	}
}

// walker visits the parts of a message, keeping the first inline text/plain
// and text/html parts and every orders attachment.
type walker struct {
	m           *Message
	opt         Options
	parts       int
	plain, html *string
}

func (w *walker) entity(e *message.Entity, depth int, inAlt bool) error {
	w.parts++
	if w.parts > w.opt.MaxParts {
		if w.parts == w.opt.MaxParts+1 {
			w.m.note("more than %d parts: the rest ignored", w.opt.MaxParts)
		}
		return nil
	}
	if mr := e.MultipartReader(); mr != nil {
		ct, _, _ := e.Header.ContentType()
		alt := ct == "multipart/alternative"
		if depth >= w.opt.MaxDepth {
			w.m.note("multipart nested deeper than %d: ignored", w.opt.MaxDepth)
			return nil
		}
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil && !message.IsUnknownCharset(err) {
				return fmt.Errorf("cannot read a part of the mail: %w", err)
			}
			if err != nil {
				w.m.note("unknown charset kept as is: %v", err)
			}
			if err := w.entity(p, depth+1, alt); err != nil {
				return err
			}
		}
	}
	return w.leaf(e, inAlt)
}

// ordersName matches attachment names such as "orders.txt", "Orders-turn3.txt"
// or "my_orders", and not "border.txt".
var ordersName = regexp.MustCompile(`(?i)(^|[^a-z])orders?([^a-z]|$)`)

// leaf reads one part. Inline text parts of a multipart/mixed that follow
// the first (Apple Mail splits the text around an inline picture) are
// appended to it; of a multipart/alternative only the first counts.
func (w *walker) leaf(e *message.Entity, inAlt bool) error {
	ct, params, err := e.Header.ContentType()
	if err != nil || ct == "" {
		ct = "text/plain" // RFC 2045 default, and what broken headers mean in practice
	}
	disp, dparams, _ := e.Header.ContentDisposition()
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	if name != "" {
		if dec, err := new(mime.WordDecoder).DecodeHeader(name); err == nil {
			name = dec
		}
		name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	}
	attached := strings.EqualFold(disp, "attachment") || (name != "" && !strings.EqualFold(disp, "inline"))
	switch {
	case attached && ct == "text/plain" && ordersName.MatchString(name):
		text, err := w.read(e)
		if err != nil {
			return err
		}
		w.m.Attachments = append(w.m.Attachments, Attachment{Name: name, Text: text})
	case attached:
		w.m.note("attachment %q (%s) ignored", name, ct)
	case ct == "text/plain" && (w.plain == nil || !inAlt):
		text, err := w.read(e)
		if err != nil {
			return err
		}
		if strings.EqualFold(params["format"], "flowed") {
			text = Unflow(text, strings.EqualFold(params["delsp"], "yes"))
		}
		if w.plain != nil {
			text = w.cap(*w.plain + "\n" + text)
		}
		w.plain = &text
	case ct == "text/html" && (w.html == nil || !inAlt):
		text, err := w.read(e)
		if err != nil {
			return err
		}
		text, err = HTMLToText(text)
		if err != nil {
			return fmt.Errorf("cannot read the HTML part: %w", err)
		}
		if w.html != nil {
			text = w.cap(*w.html + "\n" + text)
		}
		w.html = &text
	default:
		w.m.note("part %s ignored", ct)
	}
	return nil
}

// cap keeps text joined from several parts within MaxText too.
func (w *walker) cap(text string) string {
	if len(text) <= w.opt.MaxText {
		return text
	}
	w.m.Oversize = true
	return strings.ToValidUTF8(text[:w.opt.MaxText], "")
}

// read decodes a text part to UTF-8, at most MaxText bytes of it.
func (w *walker) read(e *message.Entity) (string, error) {
	b, err := io.ReadAll(io.LimitReader(e.Body, int64(w.opt.MaxText)+1))
	if err != nil {
		return "", fmt.Errorf("cannot decode a text part: %w", err)
	}
	if len(b) > w.opt.MaxText {
		w.m.Oversize = true
		b = b[:w.opt.MaxText]
	}
	if !utf8.Valid(b) {
		// An unknown or lying charset: keep what is readable. Orders
		// are ASCII in every ruleset, so they survive.
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n"), nil
}
