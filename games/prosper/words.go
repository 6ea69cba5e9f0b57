package prosper

// OrderWords lists the fixed words of Prosper's order language
// (engine.OrderWorder): the mail side tells a mistyped order, which gets an
// error, from chatter, which is only listed as not read, by these words.
// The verbs are every spelling parseLine accepts.
func (ruleset) OrderWords() (verbs, keywords []string) {
	return []string{"SETTLE", "COLONISE", "COLONIZE", "PLAN", "MOVE", "ATTACK", "SEND", "DONE", "PASS", "END"},
		[]string{"ELSE", "NONE", "FROM", "TO", "SHIPS", "SHIP"}
}
