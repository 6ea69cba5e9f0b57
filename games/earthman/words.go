package earthman

// OrderWords lists the fixed words of the classic order language
// (engine.OrderWorder): the mail side tells a mistyped order, which gets an
// error, from chatter, which is only listed as not read, by these words.
func (classic) OrderWords() ([]string, []string) {
	return verbs, []string{"FROM", "TO", "AT", "NONE", "UNTIL", "FLEET", "DEV", "DRAW", "ANY", "ALL",
		"ATTACK", "ATTACKED", "LOSS", "BY", "IF", "THEN", "EARTH", "CISLUNAR", "INNER", "SOLAR"}
}

// OrderWords lists the fixed words of the full game's order language
// (engine.OrderWorder).
func (full) OrderWords() ([]string, []string) {
	return fullVerbs, []string{"FROM", "TO", "AT", "WITH", "ON", "OFF", "ALL", "NONE", "CLEAR", "NEW",
		"FLEET", "REGION", "DISCONTENT", "SANCTIONS", "SCRAP", "RISK", "YIELD", "GENERAL", "YES", "NO",
		"OWN", "LAST", "MIN", "KEEP", "SHIELD", "TRANSFERS", "SHARES", "FEWEST", "ATRISK", "ANY", "NEVER"}
}
