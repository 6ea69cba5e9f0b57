package command

// Settings answers with the sender's settings.
const Settings Name = "SETTINGS"

// SettingsCmd is SETTINGS.
var SettingsCmd = Descriptor{
	Name:  Settings,
	Help:  []HelpLine{{"SETTINGS", "your settings, and how to change them"}},
	Usage: "write SETTINGS alone on its line",
	// Counted with the changes, as it always was: it is answered once
	// per mail whatever the count.
	Kind: Read, Limit: Changes,
	Parse: func(in In) (Command, bool, string) {
		if len(in.Args) == 0 {
			return start(Settings, in), true, ""
		}
		return start(Settings, in), false, "SETTINGS takes no arguments"
	},
	Examples:  []string{"SETTINGS", "settings"},
	Malformed: "SETTINGS LANG",
}
