package daemon

import (
	"context"
	"fmt"

	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/imapin"
)

// isComplaint reports whether a multipart/report is a feedback report
// (ARF, RFC 5965): a recipient marked one of our mails as spam.
func isComplaint(reportType string) bool { return reportType == "feedback-report" }

// complaint handles a feedback report: it is never answered. A complaint
// (Feedback-Type abuse or fraud) about a mail we sent stops the optional
// mail to the address that mail went to: reminders, digests, observer
// reports (Mailer.enqueue, remindersOff); it keeps its games' reports and
// the answers to its own mail. The GM is told, once an address.
//
// Which mail, and so which address, is told as for a DSN (dsn): by the
// VERP address the mail left with, which the report gives back as its
// Original-Mail-From and the returned mail's Return-Path (the providers
// redact the recipient), else, under bounces.verp: off, by the quoted
// Message-ID, from a sender that passes sender_auth. A report anyone can
// write must not silence a player's reminders.
func (d *Daemon) complaint(ctx context.Context, j *job) (imapin.Disposition, error) {
	j.noReply = true
	c, err := bounce.ParseARF(j.msg.Raw)
	if err != nil {
		j.rejected, j.why = true, err.Error()
		return d.finish(ctx, j)
	}
	if !c.Abuse() {
		j.why = "feedback report (" + c.FeedbackType + "): not a complaint"
		return d.finish(ctx, j)
	}
	now := d.cfg.Now().UTC()
	seq, ok, err := d.reportOn(ctx, j, "complaint", "feedback report", c.Envelopes, c.MessageID)
	if err != nil {
		return 0, err
	}
	if !ok {
		return d.finish(ctx, j)
	}
	j.why = "feedback report: nothing of ours"
	j.commit = func(tx store.Tx) error {
		sent, err := d.reportedMail(tx, j, "feedback report", seq, c.MessageID, now)
		if err != nil || sent == nil {
			return err
		}
		addr := ""
		for _, to := range sent.To {
			if bounce.Key(bareAddress(to)) == c.OriginalRcptTo {
				addr = bareAddress(to)
			}
		}
		if addr == "" && len(sent.To) == 1 {
			addr = bareAddress(sent.To[0]) // the provider redacted it
		}
		if addr == "" {
			j.why = fmt.Sprintf("feedback report about mail %d, to %d addresses, naming none of them", sent.Seq, len(sent.To))
			return nil
		}
		news, err := bounce.NoteComplaint(tx, addr, bounce.ComplaintState{Time: now, FeedbackType: c.FeedbackType, UserAgent: c.UserAgent,
			Game: sent.Game, MessageID: sent.MessageID})
		if err != nil || !news {
			if err == nil {
				j.why = "feedback report: a complaint of " + addr + ", who had complained already"
			}
			return err
		}
		j.why = "feedback report: a complaint of " + addr + " (" + c.UserAgent + "): no more optional mail to it"
		if d.cfg.GM == "" {
			return nil
		}
		loop := c.UserAgent
		if loop == "" {
			loop = "?"
		}
		text := lang.M("%s marked a mail of mine as spam (feedback loop: %s): I send that address no more reminders, digests or observer reports. It still gets its games' reports and the answers to its own mail; SET REMINDERS on from it starts the rest again.", addr, loop)
		if sent.Game != "" {
			text = lang.M("%s marked a mail of mine about game %s as spam (feedback loop: %s): I send that address no more reminders, digests or observer reports. It still gets its games' reports and the answers to its own mail; SET REMINDERS on from it starts the rest again.", addr, sent.Game, loop)
		}
		return d.gmMail(tx, nil, "complaint", text)
	}
	disp, err := d.finish(ctx, j)
	if err == nil {
		d.log.Info("complaint", "why", j.why, "message_id", c.MessageID)
	}
	return disp, err
}
