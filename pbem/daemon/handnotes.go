package daemon

import (
	"orrery/engine/game"
	"orrery/engine/lang"
)

// handNotes are the notes under a report's board picture saying who plays
// the seats that changed hands (game.HandNotes: "bob: played by eve"),
// written in the reader's language when the mail is queued: the picture
// is drawn later, from the step's view, which knows seats and not who is
// behind them (engine.NotedView). The outbox keeps them with the mail
// (outbox.Picture.Notes), so a picture drawn after a restart says the
// same.
func (m *Mailer) handNotes(hs []game.Hand, tag lang.Tag) []string {
	if len(hs) == 0 {
		return nil
	}
	env := lang.Env{Tag: tag}
	if c, ok := m.Render.(interface{ Catalog() *lang.Catalog }); ok {
		env.Catalogs = []*lang.Catalog{c.Catalog()}
	}
	var out []string
	for _, n := range game.HandNotes(hs) {
		out = append(out, lang.Render(env, n))
	}
	return out
}
