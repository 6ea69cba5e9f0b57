package unsub

import (
	"context"
	"errors"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"orrery/engine/lang"
)

// Actor does what a token asks, at once, and says what it did.
type Actor interface {
	Unsubscribe(ctx context.Context, token string) (lang.Msg, error)
}

// Handler answers Path+TOKEN. A POST acts at once (RFC 8058: what a mail
// provider sends when its reader presses "unsubscribe", with the body
// "List-Unsubscribe=One-Click", no cookie and no form to fill); the token
// is all the authentication there is. A GET or HEAD changes nothing,
// since link scanners and previews fetch every URL in a mail: it shows a
// page with one button that POSTs.
type Handler struct {
	Act Actor
	// Catalog words the pages in the reader's language (the templates'
	// catalog, templates.Set.Catalog); nil writes English.
	Catalog *lang.Catalog
	Logger  *slog.Logger
}

// maxBody bounds what a POST may carry: RFC 8058's body is 26 bytes.
const maxBody = 4096

var page = template.Must(template.New("unsub").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="robots" content="noindex"><title>{{.Title}}</title></head>
<body><p>{{.Text}}</p>{{if .Button}}<form method="post"><button type="submit" name="List-Unsubscribe" value="One-Click">{{.Button}}</button></form>{{end}}</body></html>
`))

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	env := lang.Env{Tag: readerLang(r), Catalogs: []*lang.Catalog{h.Catalog}}
	say := func(code int, text lang.Msg, button bool) {
		hd := w.Header()
		hd.Set("Content-Type", "text/html; charset=utf-8")
		hd.Set("Cache-Control", "no-store")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", "default-src 'none'; form-action 'self'; frame-ancestors 'none'")
		w.WriteHeader(code)
		if r.Method == http.MethodHead {
			return
		}
		d := map[string]string{"Lang": string(env.Tag), "Title": lang.Render(env, lang.M("Unsubscribe")), "Text": lang.Render(env, text)}
		if button {
			d["Button"] = lang.Render(env, lang.M("Unsubscribe"))
		}
		page.Execute(w, d)
	}
	tok, ok := strings.CutPrefix(r.URL.Path, Path)
	if !ok || tok == "" || strings.Contains(tok, "/") || len(tok) > MaxToken {
		say(http.StatusNotFound, lang.M("There is no such page."), false)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		say(http.StatusOK, lang.M("Press the button to get fewer mails from this server. A seated player's reports then come once a day, in the digest; an observer stops receiving the game."), true)
		return
	case http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		say(http.StatusMethodNotAllowed, lang.M("There is no such page."), false)
		return
	}
	io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
	done, err := h.Act.Unsubscribe(r.Context(), tok)
	switch {
	case errors.Is(err, ErrToken):
		say(http.StatusNotFound, lang.M("This unsubscribe link is not one of mine, or was cut short: nothing was changed. SET REMINDERS off, SET DIGEST on and UNOBSERVE and a game do it by hand."), false)
	case err != nil:
		if h.Logger != nil {
			h.Logger.Error("unsubscribe", "err", err)
		}
		say(http.StatusServiceUnavailable, lang.M("Something went wrong on my side; nothing was changed. Please try again later."), false)
	default:
		say(http.StatusOK, done, false)
	}
}

// readerLang is the first language of Accept-Language this server writes.
func readerLang(r *http.Request) lang.Tag {
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		code, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		code, _, _ = strings.Cut(code, "-")
		if t, ok := lang.Parse(code); ok {
			return t
		}
	}
	return lang.English
}
