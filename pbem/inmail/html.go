package inmail

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTMLToText turns an HTML mail body into the text a reader sees: block
// elements and <br> end lines, <pre> keeps its lines, entities are decoded,
// <style>, <script> and <head> are dropped, and <blockquote> lines get a "> "
// prefix so that quoted reports are recognised like plain-text quotes.
func HTMLToText(src string) (string, error) {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return "", err
	}
	var c htmlConv
	c.node(doc, 0)
	c.flush(false)
	return strings.TrimRight(c.out.String(), "\n") + "\n", nil
}

type htmlConv struct {
	out   strings.Builder
	line  strings.Builder
	quote int // blockquote depth
	pre   int // <pre> depth
	space bool
}

// flush ends the current line; with force it emits an empty line too.
func (c *htmlConv) flush(force bool) {
	text := c.line.String()
	if c.pre == 0 {
		text = strings.TrimSpace(text)
	} else {
		text = strings.TrimRight(text, " \t")
	}
	if text == "" && !force {
		c.line.Reset()
		return
	}
	if c.quote > 0 {
		c.out.WriteString(strings.Repeat(">", c.quote))
		if text != "" {
			c.out.WriteByte(' ')
		}
	}
	c.out.WriteString(text)
	c.out.WriteByte('\n')
	c.line.Reset()
	c.space = false
}

func (c *htmlConv) text(s string) {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	if c.pre > 0 {
		for i, part := range strings.Split(s, "\n") {
			if i > 0 {
				c.flush(true)
			}
			c.line.WriteString(part)
		}
		return
	}
	for i, f := range strings.Fields(s) {
		if (i > 0 || c.space || startsWithSpace(s)) && c.line.Len() > 0 {
			c.line.WriteByte(' ')
		}
		c.line.WriteString(f)
		c.space = false
	}
	if strings.TrimSpace(s) != "" && endsWithSpace(s) || strings.TrimSpace(s) == "" && s != "" {
		c.space = true
	}
}

func startsWithSpace(s string) bool { return s != "" && strings.TrimLeft(s, " \t\r\n") != s }
func endsWithSpace(s string) bool   { return s != "" && strings.TrimRight(s, " \t\r\n") != s }

var blocks = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Li: true, atom.Tr: true, atom.Table: true, atom.Ul: true,
	atom.Ol: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true,
	atom.H6: true, atom.Hr: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Section: true,
	atom.Article: true, atom.Header: true, atom.Footer: true, atom.Address: true, atom.Center: true,
	atom.Form: true, atom.Body: true, atom.Blockquote: true, atom.Pre: true,
}

func (c *htmlConv) node(n *html.Node, depth int) {
	if depth > 200 { // html.Parse already caps nesting; this is belt and braces
		return
	}
	switch n.Type {
	case html.TextNode:
		c.text(n.Data)
		return
	case html.ElementNode:
		switch n.DataAtom {
		case atom.Style, atom.Script, atom.Head, atom.Title, atom.Noscript, atom.Template:
			return
		case atom.Br:
			c.flush(true)
			return
		case atom.Img:
			if alt := attr(n, "alt"); alt != "" {
				c.text(alt)
			}
			return
		case atom.Td, atom.Th:
			if n.PrevSibling != nil {
				c.line.WriteByte(' ')
			}
		}
	}
	block := n.Type == html.ElementNode && blocks[n.DataAtom]
	if block {
		c.flush(false)
	}
	switch n.DataAtom {
	case atom.Blockquote:
		c.quote++
	case atom.Pre:
		c.pre++
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.node(ch, depth+1)
	}
	if block {
		c.flush(false)
	}
	switch n.DataAtom {
	case atom.Blockquote:
		c.quote--
	case atom.Pre:
		c.pre--
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
