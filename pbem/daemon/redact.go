package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
)

// Logs must never hold a secret: a log is read by more people than the
// GM's mailbox (an operator, a log collector, a bug report), and a player's
// secret in it lets the reader play that seat. The secrets that reach the
// daemon in mail travel in the subject's tag ("[demo1 k7f3q]", which every
// reply of a player carries) and in "secret=..." words; RedactSubject
// blanks both, and SafeLogger applies it to every message and attribute
// whatever its key, so a subject logged by code written later is covered
// too. Bodies (with their SECRET lines) are never logged.

var (
	// tagSecret is a subject tag with a second word: [game secret].
	tagSecret = regexp.MustCompile(`\[(\s*[^\[\]\s]+)\s+[^\[\]]*[^\[\]\s][^\[\]]*\]`)
	// wordSecret is "secret=x", "secret: x" (any case) or "SECRET x",
	// the forms route reads; "the secret is wrong" is left alone.
	wordSecret = regexp.MustCompile(`((?i:\bsecret\s*[=:]\s*)|\bSECRET\s+)[^\s\[\]]+`)
)

// Redacted stands for a secret in logs.
const Redacted = "[redacted]"

// RedactSubject returns s with the secret of every subject tag and every
// "secret=..." word replaced by Redacted: "Re: [demo1 k7f3q] turn 3"
// becomes "Re: [demo1 [redacted]] turn 3".
func RedactSubject(s string) string {
	s = tagSecret.ReplaceAllString(s, "[$1 "+Redacted+"]")
	return wordSecret.ReplaceAllString(s, "${1}"+Redacted)
}

// SafeLogger returns a logger that writes through l's handler with every
// message and string, error or Stringer attribute passed through
// RedactSubject. Wrapping twice is harmless.
func SafeLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return nil
	}
	if _, ok := l.Handler().(*safeHandler); ok {
		return l
	}
	return slog.New(&safeHandler{next: l.Handler()})
}

type safeHandler struct{ next slog.Handler }

func (h *safeHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *safeHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, RedactSubject(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *safeHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = redactAttr(a)
	}
	return &safeHandler{next: h.next.WithAttrs(clean)}
}

func (h *safeHandler) WithGroup(name string) slog.Handler {
	return &safeHandler{next: h.next.WithGroup(name)}
}

func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(RedactSubject(v.String()))
	case slog.KindGroup:
		attrs := v.Group()
		clean := make([]slog.Attr, len(attrs))
		for i, g := range attrs {
			clean[i] = redactAttr(g)
		}
		a.Value = slog.GroupValue(clean...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			if s := x.Error(); RedactSubject(s) != s {
				a.Value = slog.AnyValue(redactedError{msg: RedactSubject(s), err: x})
			}
		case fmt.Stringer:
			if s := x.String(); RedactSubject(s) != s {
				a.Value = slog.StringValue(RedactSubject(s))
			}
		case []string:
			clean := make([]string, len(x))
			for i, s := range x {
				clean[i] = RedactSubject(s)
			}
			a.Value = slog.AnyValue(clean)
		}
	}
	return a
}

// redactedError keeps the error chain (errors.Is still works for a handler
// that inspects it) with a clean message.
type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }
