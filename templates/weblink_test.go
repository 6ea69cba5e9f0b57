package templates

import (
	"strings"
	"testing"
)

// A report or welcome mail carries the addressee's private web page when
// the daemon serves pages (Data.Web), on a line of its own in the text part
// and as a link in the HTML part; without it, no line about the web at all.
func TestWebLink(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1:8080/g/demo1/p/Zm9vYmFyYmF6cXV4cXV1eA"
	for _, kind := range []string{Report, Welcome} {
		d := sample("ann")
		d.Web = url
		m, err := set.Render(kind, d)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.Text, "\n  "+url+"\n") {
			t.Errorf("%s: the text part has no line with the link:\n%s", kind, m.Text)
		}
		if !strings.Contains(m.HTML, `<a href="`+url+`">`) {
			t.Errorf("%s: the HTML part has no link:\n%s", kind, m.HTML)
		}
		d.Web = ""
		m, err = set.Render(kind, d)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.Text+m.HTML, "private page") {
			t.Errorf("%s: without http, the mail still speaks of a private page", kind)
		}
	}
}
