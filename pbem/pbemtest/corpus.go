package pbemtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"orrery/engine/game"
)

// CorpusMail is what one mail of pbem/inmail/testdata/corpus must come to,
// as each client really sends it: the daemon's table test (through the
// code of `orrery mail check`) and the end-to-end test through Postfix and
// Dovecot hold every mail to it.
type CorpusMail struct {
	File  string // in the corpus directory
	Reply bool   // answered at all (autoresponders and bounces are not)
	Game  string // the game it names ("" none)
	// Ruleset is the game SetUpCorpusGame creates for it, "" for none:
	// the mail is about a game this test does not play.
	Ruleset string
	Secret  string   // the secret it carries, given to the sender's seat
	Orders  []string // the lines read as orders, as written (trimmed)
	Ignored int      // lines listed as not read (no database)
	Errors  int      // errors of the mail itself, found with no database
	// Acked is what the acknowledgement lists as understood, in the
	// ruleset's canonical form (with a game set up by SetUpCorpusGame).
	Acked []string
}

// wrapped is the long order Gmail and K-9 break in two.
const wrapped = "SETTLE Capella 12 ELSE Regulus 12 ELSE Electra 12 ELSE Sol 12 ELSE Mira 5 ELSE Hamal 5"

// Corpus lists every mail of the corpus.
var Corpus = []CorpusMail{
	{File: "apple-ios.eml", Reply: true, Game: "ai1", Ruleset: "prosper", Secret: "u7i8o",
		Orders: []string{"SETTLE Electra 12", "SETTLE Fornax 1"}, Ignored: 2, Acked: []string{"SETTLE Electra 12", "SETTLE Fornax 1"}},
	{File: "apple-iphone.eml", Reply: true, Game: "demo1", Secret: "x8y7z", Orders: []string{"build mine at rigel", "Move Fleet 2 to Mars"}},
	{File: "apple-mail-bottom.eml", Reply: true, Game: "demo1", Secret: "x8y7z", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}, Ignored: 1},
	{File: "apple-mail-macos.eml", Reply: true, Game: "am1", Ruleset: "prosper", Secret: "e5r6t",
		Orders: []string{"SETTLE Regulus 12", "SETTLE Mira 5"}, Ignored: 4, Acked: []string{"SETTLE Regulus 12", "SETTLE Mira 5"}},
	{File: "attachment-bom.eml", Reply: true, Game: "at1", Ruleset: "prosper", Secret: "b8n7m",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 2, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "auto-exchange-oof.eml"},
	{File: "auto-naive-out-of-office.eml"},
	{File: "auto-russian-subject.eml"},
	{File: "auto-x-autoreply.eml"},
	{File: "auto-x-autorespond.eml"},
	{File: "bounce-exchange-ndr.eml"},
	{File: "bounce.eml"},
	{File: "chatter-and-signoff.eml", Reply: true, Game: "ch1", Ruleset: "prosper", Secret: "a1s2d",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 5, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "gmail-alternative.eml", Reply: true, Game: "demo1", Secret: "k7f3q", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}, Ignored: 1},
	{File: "gmail-app-reply.eml", Reply: true, Game: "ga1", Ruleset: "prosper", Secret: "k7f3q",
		Orders: []string{wrapped}, Ignored: 3, Acked: []string{wrapped}},
	{File: "gmail-attachment.eml", Reply: true, Game: "demo1", Secret: "k7f3q", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}, Ignored: 1},
	{File: "gmail-base64-french.eml", Reply: true, Game: "demo1", Orders: []string{"move fleet 2 to mars"}, Ignored: 2},
	{File: "gmail-plaintext-mode.eml", Reply: true, Game: "gp1", Ruleset: "prosper", Secret: "h4ck3r",
		Orders: []string{wrapped, "SETTLE Vega 5"}, Ignored: 1, Acked: []string{wrapped, "SETTLE Vega 5"}},
	{File: "gmail-web-wrapped.eml", Reply: true, Game: "gw1", Ruleset: "prosper", Secret: "t6y7u",
		Orders: []string{wrapped, "SETTLE Vega 5"}, Ignored: 3, Acked: []string{wrapped, "SETTLE Vega 5"}},
	{File: "html-only-nbsp.eml", Reply: true, Game: "ho1", Ruleset: "prosper", Secret: "d5f6g",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 2, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "k9-flowed-delsp.eml", Reply: true, Game: "k91", Ruleset: "prosper", Secret: "j6k7l",
		Orders: []string{wrapped, "SETTLE Vega 5"}, Ignored: 1, Acked: []string{wrapped, "SETTLE Vega 5"}},
	{File: "lf-only.eml", Reply: true, Game: "lf1", Ruleset: "prosper", Secret: "s6d7f",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "mailru.eml", Reply: true, Game: "mr1", Ruleset: "prosper", Secret: "l2k3j",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 1, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "mutt-commands.eml", Reply: true},
	{File: "mutt-iso-8859-1.eml", Reply: true, Game: "demo1", Secret: "r5t6y", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}},
	{File: "mutt-signature-above.eml", Reply: true, Game: "ma1", Ruleset: "prosper", Secret: "m1n2b",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "mutt-signature-below.eml", Reply: true, Game: "mb1", Ruleset: "prosper", Secret: "c3v4b",
		Orders: []string{"SETTLE Electra 12", "SETTLE Antares 1"}, Ignored: 2, Acked: []string{"SETTLE Electra 12", "SETTLE Antares 1"}},
	{File: "outlook-365-russian.eml", Reply: true, Game: "br1", Ruleset: "burning", Secret: "z9x8c",
		Orders: []string{"ЯЗЫК RU", "СОЮЗ zed"}, Ignored: 4, Acked: []string{"LANG RU", "ALLY zed"}},
	{File: "outlook-alternative.eml", Reply: true, Game: "demo1", Secret: "q2w9e", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}, Ignored: 3},
	{File: "outlook-desktop.eml", Reply: true, Game: "od1", Ruleset: "prosper", Secret: "q2w9e",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 4, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "outlook-html-only.eml", Reply: true, Game: "demo1", Secret: "q2w9e", Orders: []string{"build mine at rigel", "move fleet 2 to mars & hold"}, Ignored: 1},
	{File: "outlook-ios.eml", Reply: true, Game: "demo1", Secret: "q2w9e", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}},
	{File: "outlook-web.eml", Reply: true, Game: "ow1", Ruleset: "prosper", Secret: "w8e7r",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega  5"}, Ignored: 1, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "outlook-windows-1251.eml", Reply: true, Game: "demo1", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}, Ignored: 2},
	{File: "pasted-nbsp-smart-quotes.eml", Reply: true, Game: "pn1", Ruleset: "prosper", Secret: "f4g5h",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 1, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "pasted-report.eml", Reply: true, Game: "pr1", Ruleset: "prosper", Secret: "6r4gwxghve",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 73, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
	{File: "qp-soft-break-in-utf8.eml", Reply: true, Game: "qp1", Ruleset: "burning", Secret: "q1w2e",
		Orders: []string{"ЯЗЫК RU", "СОЮЗ zed"}, Ignored: 1, Acked: []string{"LANG RU", "ALLY zed"}},
	{File: "thunderbird-attachment.eml", Reply: true, Game: "demo1", Secret: "m4n5b", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}, Ignored: 1},
	{File: "thunderbird-flowed.eml", Reply: true, Game: "demo1", Secret: "m4n5b", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}},
	{File: "thunderbird-greeting.eml", Reply: true, Game: "tb1", Ruleset: "prosper", Secret: "p0o9i",
		Orders: []string{wrapped, "SETTLE Vega 5"}, Ignored: 1, Acked: []string{wrapped, "SETTLE Vega 5"}},
	{File: "thunderbird-html.eml", Reply: true, Game: "demo1", Secret: "m4n5b", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}},
	{File: "thunderbird-koi8r.eml", Reply: true, Game: "demo1", Secret: "m4n5b", Orders: []string{"build mine at rigel", "move fleet 2 to mars"}, Ignored: 1},
	{File: "two-games.eml", Reply: true, Game: "g4", Secret: "a1s2d", Orders: []string{"SETTLE Sol 12"}, Errors: 1},
	{File: "typo-order.eml", Reply: true, Game: "ty1", Ruleset: "prosper", Secret: "a1s2d",
		Orders: []string{"SETLE Sol 12", "SETTLE Vega 5"}, Ignored: 2},
	{File: "unknown-charset.eml", Reply: true, Game: "demo1", Orders: []string{"build mine at rigel"}},
	{File: "unknown-transfer-encoding.eml", Reply: true},
	{File: "yandex.eml", Reply: true, Game: "ya1", Ruleset: "prosper", Secret: "y1u2i",
		Orders: []string{"SETTLE Sol 12", "SETTLE Vega 5"}, Ignored: 2, Acked: []string{"SETTLE Sol 12", "SETTLE Vega 5"}},
}

// CorpusDir is the corpus directory, found from this file.
func CorpusDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "inmail", "testdata", "corpus")
}

// ReadCorpus reads one mail of the corpus.
func ReadCorpus(c CorpusMail) ([]byte, error) {
	return os.ReadFile(filepath.Join(CorpusDir(), c.File))
}

// SetUpCorpusGame creates c's game for sender from (its address as the
// mail has it), the sender seated as "ann" with the mail's secret beside
// seats "zed" and "cy" (addresses nobody writes from; three players, as
// Burning Planets' alliances need), so that the mail, delivered, is
// applied as its player meant it.
func SetUpCorpusGame(ctx context.Context, svc *game.Service, c CorpusMail, from string) error {
	if c.Ruleset == "" {
		return fmt.Errorf("%s: no game to set up", c.File)
	}
	players := []game.PlayerSpec{{Name: "ann", Email: from}, {Name: "zed", Email: "zed-" + c.Game + "@nowhere.invalid"},
		{Name: "cy", Email: "cy-" + c.Game + "@nowhere.invalid"}}
	if _, err := svc.Create(ctx, game.CreateRequest{ID: c.Game, Ruleset: c.Ruleset, Players: players}); err != nil {
		return fmt.Errorf("%s: %w", c.File, err)
	}
	if c.Secret == "" {
		return nil
	}
	// The secret the mail carries is the seat's: set it as a GM would
	// by export and import.
	x, err := svc.Export(ctx, c.Game)
	if err != nil {
		return err
	}
	for i := range x.Game.Players {
		if x.Game.Players[i].Name == "ann" {
			x.Game.Players[i].Secret = c.Secret
		}
	}
	if _, err := svc.Import(ctx, x, game.ImportOptions{Replace: true}); err != nil {
		return fmt.Errorf("%s: set the secret: %w", c.File, err)
	}
	return nil
}
