package outbox

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
)

// TestComposePictureAndFiles checks the shape mail clients need: the
// picture inside multipart/related beside the HTML that names it by cid,
// report.json attached, and without a picture no dangling <img>.
func TestComposePictureAndFiles(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	m := Mail{MessageID: "x@y", From: "bot@example.org", To: []string{"ann@example.org"}, Subject: "report",
		Text: "text", HTML: `<p>board:</p><img src="cid:board.s3@orrery" alt="the board"><p>end</p>`,
		Files:   []File{{Name: "report.json", ContentType: "application/json", Data: []byte(`{"version":1}`)}},
		Picture: &Picture{Game: "g", Step: 3, Player: "ann", ContentID: "board.s3@orrery", Name: "board.png"}}
	raw := compose(t, m, png)
	types := map[string]string{}
	walk(t, raw, types)
	for _, want := range []string{"multipart/mixed", "multipart/related", "multipart/alternative", "text/plain", "text/html", "image/png", "application/json"} {
		if _, ok := types[want]; !ok {
			t.Errorf("no %s part in:\n%s", want, raw)
		}
	}
	if types["image/png"] != string(png) {
		t.Errorf("picture bytes %q", types["image/png"])
	}
	if !strings.Contains(raw, "Content-Id: <board.s3@orrery>") && !strings.Contains(raw, "Content-ID: <board.s3@orrery>") {
		t.Errorf("no Content-ID header:\n%s", raw)
	}
	if types["application/json"] != `{"version":1}` {
		t.Errorf("report.json is %q", types["application/json"])
	}
	raw = compose(t, m, nil)
	types = map[string]string{}
	walk(t, raw, types)
	if _, ok := types["image/png"]; ok || strings.Contains(types["text/html"], "<img") || !strings.Contains(types["text/html"], "<p>end</p>") {
		t.Errorf("without a picture the HTML must lose its <img> only: %q", types["text/html"])
	}
}

func compose(t *testing.T, m Mail, png []byte) string {
	t.Helper()
	msg, err := ComposeWith(m, png)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// walk records each leaf part's content by type, decoded.
func walk(t *testing.T, raw string, out map[string]string) {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var part func(ct string, enc string, body io.Reader)
	part = func(ct, enc string, body io.Reader) {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil {
			t.Fatal(err)
		}
		out[mt] = ""
		if strings.HasPrefix(mt, "multipart/") {
			r := multipart.NewReader(body, params["boundary"])
			for {
				p, err := r.NextRawPart()
				if err != nil {
					return
				}
				part(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p)
			}
		}
		b, _ := io.ReadAll(decode(enc, body))
		out[mt] = string(b)
	}
	part(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
}

func decode(enc string, r io.Reader) io.Reader {
	switch strings.ToLower(enc) {
	case "base64":
		return base64Reader(r)
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	}
	return r
}

func base64Reader(r io.Reader) io.Reader {
	b, _ := io.ReadAll(r)
	d, _ := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(b)), ""))
	return bytes.NewReader(d)
}
