package bounce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"orrery/engine/store"
)

// Complaint is what a feedback report (ARF, RFC 5965) says: a recipient
// marked one of our mails as spam, and their provider's feedback loop
// (Yahoo's, Microsoft's JMRP, AOL's…) sent it back. It is a
// multipart/report with report-type=feedback-report: a part for people,
// a message/feedback-report part of fields, and the mail complained of
// (message/rfc822, or its header alone as text/rfc822-headers).
//
// Providers redact the recipient (JMRP does, more and more): which mail,
// and so which address, is told by the VERP address the mail left with,
// which comes back as the report's Original-Mail-From and as the returned
// mail's Return-Path (Envelopes), else by the returned mail's Message-ID.
type Complaint struct {
	// FeedbackType is "abuse", "fraud", "virus", "other", "not-spam"
	// (lower case); UserAgent names the loop ("Yahoo!-Mail-Feedback/2.0").
	FeedbackType, UserAgent string
	// Envelopes are the envelope senders the report gives of the mail:
	// Original-Mail-From, then the returned mail's Return-Path.
	Envelopes []string
	// OriginalRcptTo is the recipient as the report names it ("" when
	// redacted); MessageID and Subject are the returned mail's.
	OriginalRcptTo, MessageID, Subject string
}

// Abuse reports whether c is a complaint that the mail was unwanted:
// "abuse" (spam), or "fraud"; "not-spam" and the others are not.
func (c *Complaint) Abuse() bool { return c.FeedbackType == "abuse" || c.FeedbackType == "fraud" }

// ParseARF reads raw as a feedback report. It returns ErrNotARF for
// anything else, and an error wrapping it for a report without its
// message/feedback-report part. Like Parse, it reads a bounded amount:
// the report's fields to maxPart, a field to maxField, the returned
// mail's header only.
func ParseARF(raw []byte) (*Complaint, error) {
	e, err := openReport(raw, "feedback-report", ErrNotARF)
	if err != nil {
		return nil, err
	}
	report, returned, walkErr := reportParts(e, "message/feedback-report")
	if report == nil {
		if walkErr != nil {
			return nil, fmt.Errorf("%w: unreadable report: %v", ErrNotARF, walkErr)
		}
		return nil, fmt.Errorf("%w: a feedback report without its message/feedback-report part", ErrNotARF)
	}
	blocks := fieldBlocks(report, 1)
	if len(blocks) == 0 || blocks[0].get("feedback-type") == "" {
		return nil, fmt.Errorf("%w: a feedback report without Feedback-Type", ErrNotARF)
	}
	b := blocks[0]
	c := &Complaint{FeedbackType: strings.ToLower(firstWord(b.get("feedback-type"))), UserAgent: b.get("user-agent"),
		OriginalRcptTo: typedAddress(b.get("original-rcpt-to"))}
	if a := strings.Trim(strings.TrimSpace(b.get("original-mail-from")), "<>"); a != "" {
		c.Envelopes = append(c.Envelopes, a)
	}
	if returned != nil {
		if !bytes.Contains(returned, []byte("\n\n")) && !bytes.Contains(returned, []byte("\r\n\r\n")) {
			returned = append(returned, "\r\n\r\n"...) // headers alone
		}
		if m, err := mail.ReadMessage(bytes.NewReader(returned)); err == nil {
			for _, rp := range m.Header["Return-Path"] {
				if a := strings.Trim(strings.TrimSpace(rp), "<>"); a != "" && len(c.Envelopes) < 4 {
					c.Envelopes = append(c.Envelopes, a)
				}
			}
			c.MessageID = bareID(m.Header.Get("Message-Id"))
			c.Subject = m.Header.Get("Subject")
		}
	}
	return c, nil
}

// ErrNotARF is ParseARF's answer for a mail that is not a feedback report.
var ErrNotARF = fmt.Errorf("not a feedback report")

// ComplaintState is what is kept of an address that complained
// (mail/complaints/<address>): while it is kept, the address gets no
// optional mail (reminders, digests, observer reports), only what it
// asks for and its own game's reports.
type ComplaintState struct {
	Time         time.Time `json:"time"`
	FeedbackType string    `json:"feedback_type"`
	UserAgent    string    `json:"user_agent,omitempty"`
	Game         string    `json:"game,omitempty"`
	MessageID    string    `json:"message_id,omitempty"`
}

func complaints(tx store.Tx, create bool) (store.Bucket, error) {
	return store.MailBucket(tx, store.BucketMailComplaints, create)
}

// NoteComplaint records that addr complained, inside tx, and says whether
// that is news (false: it had complained already, and what was recorded
// then stays).
func NoteComplaint(tx store.Tx, addr string, c ComplaintState) (bool, error) {
	b, err := complaints(tx, true)
	if err != nil {
		return false, err
	}
	k := []byte(Key(addr))
	if b.Get(k) != nil {
		return false, nil
	}
	c.UserAgent = clipString(c.UserAgent, 100)
	data, err := json.Marshal(c)
	if err != nil {
		return false, err
	}
	return true, b.Put(k, data)
}

// Complained reports whether addr complained of our mail and did not
// ask for it again since.
func Complained(tx store.Tx, addr string) bool {
	b, _ := complaints(tx, false)
	return b != nil && b.Get([]byte(Key(addr))) != nil
}

// ClearComplaint forgets addr's complaint: the address asked for the
// optional mail again (SET REMINDERS on). It reports whether there was one.
func ClearComplaint(tx store.Tx, addr string) (bool, error) {
	b, err := complaints(tx, false)
	if err != nil || b == nil || b.Get([]byte(Key(addr))) == nil {
		return false, err
	}
	return true, b.Delete([]byte(Key(addr)))
}
