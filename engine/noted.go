package engine

import "orrery/engine/draw"

// NotedView is v whose picture (Drawer) has notes written under it
// (draw.Picture.WithNotes): what the side showing it knows and the
// ruleset does not, such as who plays a seat while its holder is away.
// Its board and status are v's. Wrap a view last, once it is worded for
// its reader (ViewLocalizer, Localizer): the wrapper hides v's other
// methods. No notes give v back.
func NotedView(v View, notes []string) View {
	if len(notes) == 0 || v == nil {
		return v
	}
	if _, ok := v.(Drawer); !ok {
		return v
	}
	return notedView{View: v, notes: notes}
}

type notedView struct {
	View
	notes []string
}

// Picture is the view's picture with the notes under it.
func (n notedView) Picture() *draw.Picture {
	p := n.View.(Drawer).Picture()
	if p == nil {
		return nil
	}
	return p.WithNotes(n.notes...)
}
