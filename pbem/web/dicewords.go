package web

import (
	"strconv"
	"strings"

	"orrery/engine/lang"
)

// The dice check (templates/web/dice.js) writes its verdicts in the
// browser, in the page's language: the page hands it its words as a
// JSON block (diceWords), rendered here from these messages. Their
// arguments are all %s, numbers too: the browser fills them in ({1},
// {2}, … in the rendered text), and a count chooses its plural form there
// (the forms are rendered here, one per form of the language).
var diceMsgs = []lang.Msg{
	lang.M("your browser's own SHA-256 (WebCrypto)"),
	lang.M("this page's own SHA-256"),
	lang.M("this page's own SHA-256 (your browser offers its own only to pages served over HTTPS)"),
	lang.M("no unbiased draw in 1000 tries"),
	lang.M("not a list"),
	lang.M("the part %s: %s", "HEAD", "WHAT"),
	lang.M("sealed: enters by its hash"),
	lang.M("cannot be read: its lines are garbled"),
	lang.M("hashes to %s, not %s", "GOT", "WANT"),
	lang.M("matches its hash"),
	lang.M("has the salt %s, the hidden seed gives %s", "SALT", "WANT"),
	lang.M("matches its hash; its salt derives from the hidden seed"),
	lang.M("no digest of the orders on the page"),
	lang.M("the parts' hashes give the digest %s, the page says %s", "GOT", "WANT"),
	lang.M("step %s: %s", "N", "WHAT"),
	lang.M("this page does not know dice scheme %s", "S"),
	lang.M("unknown scheme"),
	lang.M("its commitment is not the one announced after step %s", "N"),
	lang.M("SHA-256 of the seed is %s, not the commitment %s", "GOT", "WANT"),
	lang.M("the seed does not derive from the dice secret"),
	lang.M("the hidden seed on the page is not the one the dice secret gives (%s)", "WANT"),
	lang.M("the hidden seed on the page does not give the seed"),
	lang.M("the seed and the digest give the roll seed %s, the page says %s", "GOT", "WANT"),
	lang.M("shown to you: its rolls are checked below"),
	lang.M("derives from the hidden seed"),
	lang.M("the seed of the dice marked [%s] is not the one the hidden seed gives (%s)", "KEY", "WANT"),
	lang.M("the hidden seed gives %s", "WANT"),
	lang.M("roll #%s", "N"),
	lang.M("%s: no seed of its dice on the page", "ROLL"),
	lang.M("no seed"),
	lang.M("%s comes where roll #%s should: a roll is missing or out of place", "ROLL", "N"),
	lang.M("%s: the page shows %s but its data says %s", "ROLL", "SHOWN", "DATA"),
	lang.M("the data beside it says %s", "DATA"),
	lang.M("%s (d%s): the seed gives %s, the page says %s", "ROLL", "SIDES", "GOT", "SHOWN"),
	lang.M("the seed gives %s", "GOT"),
	lang.M("verified"),
	lang.M("does not check out"),
	lang.M("All verified with %s: %s. Every roll on this page is verified.", "ENGINE", "LIST"),
	lang.M("and %s more", "N"),
	lang.M("Checking…"),
	lang.M("The check could not run: %s", "WHY"),
	// the receipt finder
	lang.M("Paste a receipt (64 hex digits) to find it."),
	lang.M("No part of the orders on this page has the receipt %s.", "HASH"),
	lang.M("Found: step %s, %s. The check above verifies that its hash enters the step's digest, which the roll seed mixes.", "N", "HEAD"),
}

// diceCounts are the verdicts chosen by a count: one and other are the
// English forms, the first argument the count.
var diceCounts = []lang.Msg{
	lang.MN("%s of %s seed matches its commitment", "%s of %s seeds match their commitments", "N", "OF"),
	lang.MN("%s commitment chains from step to step", "%s commitments chain from step to step", "N"),
	lang.MN("%s part of the orders matches its hash", "%s parts of the orders match their hashes", "N"),
	lang.MN("%s sealed one enters by its hash alone", "%s sealed ones enter by their hashes alone", "N"),
	lang.MN("%s digest of the orders", "%s digests of the orders", "N"),
	lang.MN("%s roll seed follows from seed and digest", "%s roll seeds follow from seed and digest", "N"),
	lang.MN("%s roll recomputed", "%s rolls recomputed", "N"),
	lang.MN("%s seed derives from the dice secret", "%s seeds derive from the dice secret", "N"),
	lang.MN("%s hidden seed gives its seed", "%s hidden seeds give their seeds", "N"),
	lang.MN("%s seed of hidden dice derives from the hidden seeds", "%s seeds of hidden dice derive from the hidden seeds", "N"),
	lang.MN("%s salt derives from the hidden seeds", "%s salts derive from the hidden seeds", "N"),
	lang.MN("%s problem found with %s: %s.", "%s problems found with %s: %s.", "N", "ENGINE", "LIST"),
	lang.MN("Checking… %s roll so far.", "Checking… %s rolls so far.", "N"),
}

// diceWords is what dice.js reads from the page: Lang chooses the plural
// rule, T the verdicts by their English id, N the forms of each counted
// one by its English singular. English needs none: the script's ids are
// its English.
type diceWords struct {
	Lang string              `json:"lang"`
	T    map[string]string   `json:"t"`
	N    map[string][]string `json:"n"`
}

func (s *Site) diceWords(tag lang.Tag) diceWords {
	w := diceWords{Lang: string(tag), T: map[string]string{}, N: map[string][]string{}}
	c := s.cfg.Catalog
	if tag == "" || tag == lang.English || c == nil {
		return w
	}
	holes := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = "{" + strconv.Itoa(i+1) + "}"
		}
		return out
	}
	for _, m := range diceMsgs {
		if c.Has(tag, m.ID) {
			w.T[m.ID] = c.Sprintf(tag, m.ID, holes(strings.Count(m.ID, "%s"))...)
		}
	}
	for _, m := range diceCounts {
		if !c.Has(tag, m.ID) {
			continue
		}
		for i := 0; i < lang.Forms(tag); i++ {
			for n := 1; n < 1000; n++ {
				if lang.FormIndex(tag, n) == i {
					w.N[m.ID] = append(w.N[m.ID], c.Nprintf(tag, n, m.ID, m.Other, holes(strings.Count(m.ID, "%s"))...))
					break
				}
			}
		}
	}
	return w
}
