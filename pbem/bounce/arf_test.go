package bounce

import (
	"errors"
	"strings"
	"testing"
)

// TestARFCorpus reads the feedback reports of testdata/arf, in the shapes
// Yahoo's feedback loop and Microsoft's JMRP send (JMRP redacts the
// recipient: the VERP envelope sender is what is left to tell the mail),
// and refuses a DSN and a person's mail.
func TestARFCorpus(t *testing.T) {
	for _, c := range []struct {
		file, ua, rcpt, id string
		envelopes          int
	}{
		{"yahoo-abuse.eml", "Yahoo!-Mail-Feedback/2.0", "bob@yahoo.com", "9f1c2ab45e7d10a2b3c4d5e6.demo1.e0s7.orrery@pbem.example", 2},
		{"microsoft-jmrp.eml", "Microsoft JMRP/1.0", "", "2b7d90e1c44a51f3a0b8e6d2.demo1.e0s8.orrery@pbem.example", 2},
	} {
		raw := readFile(t, "testdata/arf/"+c.file)
		got, err := ParseARF(raw)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if !got.Abuse() || got.FeedbackType != "abuse" || got.UserAgent != c.ua || got.OriginalRcptTo != c.rcpt || got.MessageID != c.id || len(got.Envelopes) != c.envelopes {
			t.Errorf("%s: %+v", c.file, got)
		}
		for _, e := range got.Envelopes {
			if e != "orrery+b-VERPTOKEN@pbem.example" {
				t.Errorf("%s: envelope %q", c.file, e)
			}
		}
	}
	for _, f := range []string{"testdata/dsn/postfix-user-unknown.eml", "testdata/dsn/not-a-dsn-out-of-office.eml"} {
		raw := readFile(t, f)
		if _, err := ParseARF(raw); !errors.Is(err, ErrNotARF) {
			t.Errorf("%s: %v, want ErrNotARF", f, err)
		}
	}
	noPart := "Content-Type: multipart/report; report-type=feedback-report; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nspam!\r\n--b--\r\n"
	if _, err := ParseARF([]byte(noPart)); !errors.Is(err, ErrNotARF) || !strings.Contains(err.Error(), "message/feedback-report") {
		t.Errorf("a report without its part: %v", err)
	}
	notSpam := strings.Replace(string(readFile(t, "testdata/arf/yahoo-abuse.eml")), "Feedback-Type: abuse", "Feedback-Type: not-spam", 1)
	if c, err := ParseARF([]byte(notSpam)); err != nil || c.Abuse() {
		t.Errorf("not-spam: %+v, %v", c, err)
	}
}
