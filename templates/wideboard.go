package templates

import (
	"orrery/engine"
	"orrery/engine/lang"
)

// wideBoard is the board of d's report in one piece for the HTML part,
// where a board cut into panels to fit the text part's 78 columns would
// be read in halves (engine.WideBoarder), written in the reader's
// language; "" when the view has no wider form, and the board as the text
// part has it is shown.
func (s *Set) wideBoard(d *Data, tag lang.Tag) string {
	if d == nil || d.Report == nil || d.Report.View == nil {
		return ""
	}
	v := d.Report.View
	if vl := viewLocalizerOf(d, d.Report); vl != nil && tag != lang.English {
		v = vl.Localize(v, string(tag))
	}
	if wb, ok := v.(engine.WideBoarder); ok {
		return wb.WideBoard()
	}
	return ""
}
