package templates

import (
	"html"
	htmltemplate "html/template"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The HTML part is for mail clients, which strip <style> and most of the
// head: every style is inline. Colours are greys that read on a light and a
// dark background alike (clients that switch to dark mode re-colour text
// but not inline greys), and no background is set, so that a client's
// dark mode never leaves dark text on a dark page.
//
// A ruleset's status is text laid out in columns for a monospaced reader
// (engine.View.Status). In a proportional font those columns scatter, so
// statusHTML turns each block that is laid out as a table into a real
// <table>, and the rest into paragraphs.

const (
	styleTable = "border-collapse:collapse;margin:4px 0 12px 0;font-size:14px"
	styleTH    = "text-align:left;padding:3px 12px 3px 0;vertical-align:bottom"
	styleTD    = "padding:3px 12px 3px 0;vertical-align:top"
	styleNum   = ";text-align:right"
	// A short column never breaks, and a long one (Prosper's neighbours,
	// a list of names) wraps at a width that holds a few words a line: left
	// to the browser, a phone's narrow table gave the long column one word
	// a line and rows ten lines tall, with the rest of the table squeezed.
	// The table scrolls in its box instead.
	styleShort = ";white-space:nowrap"
	styleLong  = ";min-width:13em"
	longCell   = 20 // runes: a column with a longer cell is a long one
	// Rows carry the rules between them (border-collapse), so a cell's
	// style stays short: a status table has hundreds of cells.
	styleHeadRow = "border-bottom:1px solid rgba(128,128,128,.6)"
	styleRow     = "border-bottom:1px solid rgba(128,128,128,.25)"
	styleP       = "margin:0 0 4px 0"
	styleHead    = "margin:12px 0 4px 0;font-size:15px"
)

// statusHTML renders a status text as tables and paragraphs.
func statusHTML(s string) htmltemplate.HTML {
	var b strings.Builder
	b.Grow(4 * len(s)) // the tags and their styles: about four times the text
	for _, block := range blocks(s) {
		if rows, ok := table(block); ok {
			writeTable(&b, rows)
			continue
		}
		items := logical(block)
		for i, it := range items {
			if i == 0 && len(items) > 1 && isHeading(it) {
				b.WriteString(`<h4 style="` + styleHead + `">` + html.EscapeString(it) + "</h4>\n")
				continue
			}
			b.WriteString(`<p style="` + styleP + `">` + html.EscapeString(it) + "</p>\n")
		}
	}
	return htmltemplate.HTML(b.String())
}

// blocks splits text at blank lines.
func blocks(s string) [][]string {
	var out [][]string
	var cur []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// logical joins lines that continue the one above (indented deeper) into
// one item each.
func logical(block []string) []string {
	var out []string
	base := -1
	for _, l := range block {
		ind := len(l) - len(strings.TrimLeft(l, " "))
		if base >= 0 && ind > base && len(out) > 0 {
			out[len(out)-1] += " " + strings.TrimSpace(l)
			continue
		}
		if base < 0 || ind < base {
			base = ind
		}
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// isHeading says whether a block's first line names the block: short,
// with no sentence punctuation ("Players", "Planets", "Ships").
func isHeading(s string) bool {
	return len([]rune(s)) <= 40 && !strings.ContainsAny(s, ".,;:!?") && !strings.ContainsAny(s, "0123456789")
}

var numeric = regexp.MustCompile(`^[-+]?\d[\d.,/]*%?$`)

// table reads a block laid out in columns: its first line is a header
// whose columns are separated by two spaces or more, and every line has
// spaces wherever the header has such a gap (a gutter). Lines whose first
// column is empty continue the row above (a cell wrapped onto the next
// line). ok is false for a block that is not a table.
func table(block []string) (rows [][]string, ok bool) {
	if len(block) < 2 {
		return nil, false
	}
	grid := make([]cols, len(block))
	width := 0
	for i, l := range block {
		grid[i] = colsOf(l)
		width = max(width, grid[i].len())
	}
	space := func(row cols, x int) bool { return x >= row.len() || row.at(x) == ' ' }
	head := grid[0]
	// Gutters: runs of at least two columns blank in every line, lying
	// inside the header (so the header names every column).
	var cuts [][2]int // [start, end) of each column
	start := 0
	for x := 0; x < head.len(); {
		if !space(head, x) {
			x++
			continue
		}
		end := x
		for end < width && all(grid, func(r cols) bool { return space(r, end) }) {
			end++
		}
		if end-x >= 2 && end < head.len() {
			cuts = append(cuts, [2]int{start, x})
			start = end
			x = end
			continue
		}
		x++
	}
	if len(cuts) == 0 {
		return nil, false
	}
	cuts = append(cuts, [2]int{start, width})
	cell := func(r cols, c [2]int) string {
		if c[0] >= r.len() {
			return ""
		}
		return strings.TrimSpace(r.slice(c[0], min(c[1], r.len())))
	}
	filled := 0
	for i, r := range grid {
		row := make([]string, 0, len(cuts))
		for _, c := range cuts {
			row = append(row, cell(r, c))
		}
		if i > 0 && row[0] == "" && len(rows) > 1 {
			prev := rows[len(rows)-1]
			for k, v := range row {
				if v != "" {
					prev[k] = strings.TrimSpace(prev[k] + " " + v)
				}
			}
			continue
		}
		n := 0
		for _, v := range row {
			if v != "" {
				n++
			}
		}
		if i == 0 && n != len(row) {
			return nil, false // a header names every column
		}
		if n >= 2 {
			filled++
		}
		rows = append(rows, row)
	}
	// A table has rows with at least two cells filled: prose that
	// happens to leave a gutter does not.
	return rows, filled >= 2 && len(rows) >= 2
}

// cols is a line of a status text addressed by column (character): an
// ASCII line as it is, any other as runes. Most lines are ASCII, and
// making runes of every one was a third of reading a table.
type cols struct {
	s string
	r []rune // nil for an ASCII line
}

func colsOf(l string) cols {
	for i := 0; i < len(l); i++ {
		if l[i] >= utf8.RuneSelf {
			return cols{r: []rune(l)}
		}
	}
	return cols{s: l}
}

func (c cols) len() int {
	if c.r != nil {
		return len(c.r)
	}
	return len(c.s)
}

func (c cols) at(x int) rune {
	if c.r != nil {
		return c.r[x]
	}
	return rune(c.s[x])
}

func (c cols) slice(a, b int) string {
	if c.r != nil {
		return string(c.r[a:b])
	}
	return c.s[a:b]
}

func all(grid []cols, f func(cols) bool) bool {
	for _, r := range grid {
		if !f(r) {
			return false
		}
	}
	return true
}

func writeTable(b *strings.Builder, rows [][]string) {
	num := make([]bool, len(rows[0]))
	for k := range num {
		num[k] = true
		seen := false
		for _, r := range rows[1:] {
			if r[k] == "" {
				continue
			}
			seen = true
			if !numeric.MatchString(r[k]) {
				num[k] = false
				break
			}
		}
		num[k] = num[k] && seen
	}
	long := make([]bool, len(rows[0]))
	for _, r := range rows {
		for k, v := range r {
			if len([]rune(v)) > longCell {
				long[k] = true
			}
		}
	}
	cellStyle := func(base string, k int) string {
		st := base
		if num[k] {
			st += styleNum
		}
		if long[k] {
			return st + styleLong
		}
		return st + styleShort
	}
	// Each column's opening tags once: a status table has hundreds of
	// cells, and every report mail has one.
	th := make([]string, len(rows[0]))
	td := make([]string, len(rows[0]))
	for k := range td {
		th[k] = `<th style="` + cellStyle(styleTH, k) + `">`
		td[k] = `<td style="` + cellStyle(styleTD, k) + `">`
	}
	b.WriteString(`<div style="overflow-x:auto;max-width:100%"><table style="` + styleTable + `">` + "\n" + `<tr style="` + styleHeadRow + `">`)
	for k, h := range rows[0] {
		b.WriteString(th[k])
		b.WriteString(html.EscapeString(h))
		b.WriteString("</th>")
	}
	b.WriteString("</tr>\n")
	for _, r := range rows[1:] {
		b.WriteString(`<tr style="` + styleRow + `">`)
		for k, v := range r {
			b.WriteString(td[k])
			b.WriteString(html.EscapeString(v))
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n")
}
