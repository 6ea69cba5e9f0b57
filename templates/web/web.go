// Package web holds the read-only web pages' templates (html/template) and
// their static files: one stylesheet and two small scripts. pbem/web renders
// and serves them; they are embedded so that the binary is all a server
// needs.
//
// layout.html defines the frame every page shares and the pieces several
// pages use (the board, events, dice); each page file defines "content".
// Nothing here runs inline script or inline style, so the pages work under
// a Content-Security-Policy that allows only this server's own files.
package web

import "embed"

// Files holds every template (*.html) and static file (*.css, *.js).
//
//go:embed *.html *.css *.js
var Files embed.FS

// Pages names the page templates; each is parsed with layout.html.
var Pages = []string{"index.html", "report.html", "dice.html", "error.html"}

// Assets names the static files served under /assets/ (and written to an
// archive's assets/ folder).
var Assets = []string{"style.css", "local.js", "dice.js"}
