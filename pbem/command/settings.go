package command

import "orrery/engine/lang"

// Settings answers with the sender's settings.
const Settings Name = "SETTINGS"

// SettingsCmd is SETTINGS.
var SettingsCmd = Descriptor{
	Name:  Settings,
	Help:  []HelpLine{{"SETTINGS", "your settings, and how to change them"}},
	Usage: lang.M("write SETTINGS alone on its line"),
	// Counted with the changes, as it always was: it is answered once
	// per mail whatever the count.
	Kind: Read, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		if len(in.Args) == 0 {
			return start(Settings, in), true, lang.Msg{}
		}
		return start(Settings, in), false, lang.M("SETTINGS takes no arguments")
	},
	Examples:  []string{"SETTINGS", "settings"},
	Malformed: "SETTINGS LANG",
}
