package burning

import "sort"

// orderVerbs are the canonical words a Burning Planets order starts with.
var orderVerbs = map[string]bool{vBuild: true, vDemolish: true, vBuy: true, vMake: true, vShip: true, vFire: true,
	vBombard: true, vLang: true, vAlly: true, vBreak: true, vOffer: true, vAccept: true, vResign: true,
	vCancel: true, vClear: true, vTile: true, vAuto: true, wAsteroid: true}

// OrderWords lists the fixed words of the order language in English and
// Russian (engine.OrderWorder): the mail side tells a mistyped order, which
// gets an error, from chatter, which is only listed as not read, by these
// words. They are the spellings the parser reads, folded as it folds them
// (Cyrillic letters that look like Latin ones read as Latin); the mail side
// folds the same way before comparing.
func (ruleset) OrderWords() (verbs, keywords []string) {
	for spelling, canon := range words {
		if orderVerbs[canon] {
			verbs = append(verbs, spelling)
		} else {
			keywords = append(keywords, spelling)
		}
	}
	for p := range preps {
		keywords = append(keywords, p)
	}
	sort.Strings(verbs)
	sort.Strings(keywords)
	return verbs, keywords
}
