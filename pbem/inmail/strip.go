package inmail

import (
	"regexp"
	"strings"
)

// Reply headers that introduce a quoted earlier mail, as clients write them
// in the languages our players use. They are matched on one line, or on two
// lines joined (Gmail wraps long "On … wrote:" lines).
var (
	// Quoted with ">" below: drop the header, keep unquoted text after the
	// quote (bottom-posting).
	attribution = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^on .{4,}\bwrote:$`),                                  // Gmail, Apple Mail, Thunderbird, mutt
		regexp.MustCompile(`(?i)^.{0,120}\bwrote:$`),                                  // "Ann <a@b> wrote:", mutt "* Ann <a@b> [2026-11-22 20:01]:"
		regexp.MustCompile(`(?i)^le .{4,}\sa [ée]crit ?:$`),                           // French
		regexp.MustCompile(`(?i)^am .{4,}\bschrieb .{0,120}:$`),                       // German
		regexp.MustCompile(`(?i)^el .{4,}\bescribi[óo] ?:$`),                          // Spanish
		regexp.MustCompile(`(?i)^.{0,160}\s(пишет|написал|написала) ?:$`),             // Russian: "22.11.2026 20:01, Orrery пишет:"
		regexp.MustCompile(`^\* .{3,} \[[0-9: +-]{10,}\]:$`),                          // mutt default attribution
		regexp.MustCompile(`^\d{1,2}\.\d{1,2}\.\d{2,4},? \d{1,2}:\d{2},? .{1,160}:$`), // Yandex: 22.11.2026, 20:01, "Orrery" <o@x>:
	}
	// The earlier mail follows unquoted: everything from here on goes.
	cutHere = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^-{2,} ?(original message|ursprüngliche nachricht|message d'origine|исходное сообщение|mensaje original) ?-{2,}$`),
		regexp.MustCompile(`(?i)^-{2,} ?forwarded message ?-{2,}$`),
		regexp.MustCompile(`(?i)^begin forwarded message:$`),
		regexp.MustCompile(`^_{20,}$`), // Outlook's rule above "From: … Sent: …"
	}
	// Signatures and mobile footers: everything from here on goes.
	signature = []*regexp.Regexp{
		regexp.MustCompile(`^-- ?$`),
		regexp.MustCompile(`(?i)^sent from my (iphone|ipad|android|mobile|samsung|galaxy|phone|blackberry)\b.*$`),
		regexp.MustCompile(`(?i)^sent from (mail|outlook) for (windows|ios|android).*$`),
		regexp.MustCompile(`(?i)^(get|download) outlook for (ios|android)\b.*$`),
		regexp.MustCompile(`(?i)^sent with proton ?mail\b.*$`),
		regexp.MustCompile(`(?i)^sent from (gmail mobile|yahoo mail|aol mobile mail)\b.*$`),
		regexp.MustCompile(`(?i)^отправлено с (iphone|ipad|android|мобильного).*$`),
		regexp.MustCompile(`(?i)^envoyé de mon (iphone|ipad).*$`),
	}
	outlookFrom = regexp.MustCompile(`(?i)^\*?(from|von|de|от) ?:\*? `)
	outlookSent = regexp.MustCompile(`(?i)^\*?(sent|date|gesendet|envoyé|enviado|отправлено|дата) ?:\*? `)
)

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// Line is one line of a mail's text with its number in Message.Body
// (1-based), so that a reply can name the line as the player sees it in
// the mail they sent, quotes and all.
type Line struct {
	N    int
	Text string
}

// StripQuotes keeps what the player wrote in a reply: quoted lines ("> …"),
// reply headers ("On … wrote:", "… пишет:", "-----Original Message-----",
// Outlook's "From: … Sent: …" block) and the signature (after "-- " or a
// "Sent from my iPhone" footer) go; the player's own lines stay whether they
// stand above the quote (top-posting) or below it (bottom-posting). Leading
// and trailing blank lines go too; the lines kept keep their order.
func StripQuotes(text string) string {
	kept, _ := stripLines(text)
	return joinLines(kept)
}

// stripLines is StripQuotes keeping each line's number. below holds what
// follows a signature separator or a mobile footer, quotes taken away in
// the same way: mutt users who reply with the cursor under their
// signature write their orders there, and the daemon reads them when
// nothing above the signature is an order.
func stripLines(text string) (kept, below []Line) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i, kept, sig := stripFrom(lines, 0, true)
	if sig {
		_, below, _ = stripFrom(lines, i+1, false)
	}
	return kept, below
}

// stripFrom strips lines from index start on. It stops at the earlier mail
// of a reply (an "Original Message" rule, Outlook's header block) and, with
// atSig, at a signature, returning its index and sig set.
func stripFrom(lines []string, start int, atSig bool) (stop int, kept []Line, sig bool) {
	for i := start; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], " \t")
		t := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(t, ">"):
			continue
		case atSig && (matchAny(signature, raw) || matchAny(signature, t)):
			return i, finishLines(kept), true
		case matchAny(cutHere, t):
			return i, finishLines(kept), false
		case outlookBlock(lines, i):
			return i, finishLines(kept), false
		case isAttribution(lines, i):
			// A wrapped attribution spans this line and the next.
			if !matchAny(attribution, t) {
				i++
			}
			continue
		}
		kept = append(kept, Line{N: i + 1, Text: raw})
	}
	return len(lines), finishLines(kept), false
}

// joinLines is the text of lines, one a line, ending in a newline ("" for
// none).
func joinLines(lines []Line) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// isAttribution says whether line i starts a reply header that a quote
// follows. Requiring the quote avoids eating an order line that happens to
// end in "wrote:".
func isAttribution(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	next := i + 1
	if !matchAny(attribution, t) {
		if i+1 >= len(lines) {
			return false
		}
		joined := t + " " + strings.TrimSpace(lines[i+1])
		if !matchAny(attribution, joined) || !strings.HasPrefix(strings.ToLower(t), "on ") && !strings.HasPrefix(strings.ToLower(t), "le ") {
			return false
		}
		next = i + 2
	}
	for ; next < len(lines); next++ {
		n := strings.TrimSpace(lines[next])
		if n == "" {
			continue
		}
		return strings.HasPrefix(n, ">")
	}
	return false
}

// outlookBlock recognises Outlook's unquoted reply header: a "From:" line
// with a "Sent:" (or "Date:") line among the next three.
func outlookBlock(lines []string, i int) bool {
	if !outlookFrom.MatchString(strings.TrimSpace(lines[i])) {
		return false
	}
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		if outlookSent.MatchString(strings.TrimSpace(lines[j])) {
			return true
		}
	}
	return false
}

// finishLines drops leading and trailing blank lines.
func finishLines(kept []Line) []Line {
	for len(kept) > 0 && strings.TrimSpace(kept[len(kept)-1].Text) == "" {
		kept = kept[:len(kept)-1]
	}
	for len(kept) > 0 && strings.TrimSpace(kept[0].Text) == "" {
		kept = kept[1:]
	}
	return kept
}

// Unflow undoes RFC 3676 format=flowed, which Thunderbird and Apple Mail
// send: a line ending in a space continues on the next one, and a leading
// space was added to lines starting with " ", ">" or "From ". The signature
// separator "-- " is never joined.
func Unflow(text string, delsp bool) string {
	lines := strings.Split(text, "\n")
	var out []string
	var cur strings.Builder
	open := false
	for _, l := range lines {
		quote := 0
		for quote < len(l) && l[quote] == '>' {
			quote++
		}
		body := l[quote:]
		body = strings.TrimPrefix(body, " ") // space stuffing
		prefix := strings.Repeat(">", quote)
		if quote > 0 {
			prefix += " "
		}
		if !open {
			cur.WriteString(prefix)
		}
		soft := strings.HasSuffix(body, " ") && body != "-- "
		if soft && delsp {
			body = body[:len(body)-1]
		}
		cur.WriteString(body)
		if soft {
			open = true
			continue
		}
		out = append(out, strings.TrimRight(cur.String(), " "))
		cur.Reset()
		open = false
	}
	if open {
		out = append(out, strings.TrimRight(cur.String(), " "))
	}
	return strings.Join(out, "\n")
}

// signOff starts the closing of a mail: "Regards,", "Cheers, Bob", "Спасибо".
var signOff = regexp.MustCompile(`(?i)^(best regards|kind regards|regards|best wishes|cheers|thanks|thank you|greetings|yours|sincerely|merci|cordialement|amitiés|bien à vous|grüße|viele grüße|gruß|mfg|с уважением|спасибо|всего доброго|удачи)(?:[\s,.!]|$)`)

// StripSignOff removes an informal closing that has no "-- " separator: a
// last paragraph of at most four short lines that starts with a sign-off
// word ("Regards,", "Merci !", "Спасибо, Дима") or consists of the sender's
// name alone ("Ann" from "Ann Example"). Players sign their orders like any
// other mail, and a name is never an order, but an error about it would
// only confuse. name is the From display name; it may be empty.
func StripSignOff(text, name string) string {
	var lines []Line
	for i, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		lines = append(lines, Line{N: i + 1, Text: l})
	}
	return joinLines(stripSignOffLines(lines, name))
}

func stripSignOffLines(lines []Line, name string) []Line {
	first := ""
	if f := strings.Fields(name); len(f) > 0 {
		first = strings.Trim(f[0], `",`)
	}
	isName := func(l string) bool {
		l = strings.Trim(strings.TrimSpace(l), ",.!")
		return l != "" && (strings.EqualFold(l, name) || strings.EqualFold(l, first))
	}
	n := len(lines)
	for i := n - 1; i >= 0 && i >= n-4; i-- {
		l := strings.TrimSpace(lines[i].Text)
		if l == "" || len(l) > 40 {
			break
		}
		if signOff.MatchString(l) || (i == n-1 && isName(l) && (i == 0 || strings.TrimSpace(lines[i-1].Text) == "")) {
			return finishLines(lines[:i])
		}
	}
	return finishLines(lines)
}
