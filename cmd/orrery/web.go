package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"orrery/engine/game"
	"orrery/pbem/daemon"
	"orrery/pbem/inmail"
	"orrery/pbem/web"
	"orrery/templates"
)

// webSide is the daemon's read-only web pages (pbem/web): the listener,
// opened before the daemon starts so that a port in use is an error at
// once, and the address players reach the pages at, for the links in their
// mail.
type webSide struct {
	ln  net.Listener
	url string
	// extra, when set, holds handlers served beside the pages on the
	// same listener (/metrics, when metrics.listen is http.listen).
	extra *http.ServeMux
}

// listenWeb opens addr ("127.0.0.1:0" for any free port). url is the
// public address (behind a proxy); "" means http://ADDR as opened.
func listenWeb(addr, url string) (*webSide, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web pages on %s: %w", addr, err)
	}
	if url == "" {
		url = "http://" + ln.Addr().String()
	}
	return &webSide{ln: ln, url: strings.TrimRight(url, "/")}, nil
}

// link is the daemon's WebLink: nil without web pages.
func (w *webSide) link() daemon.WebLink {
	if w == nil {
		return nil
	}
	return web.PrivateLink(w.url)
}

// base is the pages' public address, "" without web pages: one-click
// unsubscribe links point there.
func (w *webSide) base() string {
	if w == nil {
		return ""
	}
	return w.url
}

func (w *webSide) close() {
	if w != nil {
		w.ln.Close()
	}
}

// site builds the pages' handler over svc. from is the bot's From address.
func newSite(svc *game.Service, from, url string, log *slog.Logger) (*web.Site, error) {
	bot := inmail.Bare(from)
	set, err := templates.New("")
	if err != nil {
		return nil, err
	}
	return web.New(web.Config{Service: svc, Bot: bot, URL: url, Picture: boardPicture(), Logger: log,
		Catalog: set.Catalog(), Localize: set.LocalReport})
}

// serve answers on the listener until ctx is done, then shuts down
// gracefully. The handler is a plain http.Handler: a metrics endpoint on
// the same address would be mounted beside it here.
func (w *webSide) serve(ctx context.Context, h http.Handler, log *slog.Logger) error {
	return web.Serve(ctx, w.ln, h, log)
}

// boardPicture is the drawing of boards for the pages: engine/draw's, as
// SVG, for every view that draws one.
func boardPicture() web.Picture { return web.Drawn }
