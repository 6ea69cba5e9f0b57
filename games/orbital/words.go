package orbital

// OrderWords lists the fixed words of the order language
// (engine.OrderWorder): the mail side tells a mistyped order, which gets an
// error, from chatter, which is only listed as not read, by these words.
func (ruleset) OrderWords() ([]string, []string) {
	return verbs, []string{"AT", "WHEN", "ANY", "LEFT", "RIGHT", "CONTRA", "TURN", "FACE", "SHOTS", "MIN",
		"FROM", "CW", "INTO", "BAY", "SPACE"}
}
