package main

import (
	"fmt"
	"os"

	"gopkg.in/yaml.v3"

	"orrery/engine/game"
	"orrery/pbem/bounce"
	"orrery/pbem/config"
	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
	"orrery/pbem/web"
)

// mailOptions returns the game-service options that make a command queue
// the mails its changes cause (welcome mails for `game new`, notices for a
// GM's pause, deadline or message) in the database's outbox, exactly as the
// daemon would; the daemon sends them when it next runs. Without a config
// (cfgPath "" and no ORRERY_CONFIG) it returns nil: a database used without
// mail queues nothing.
//
// Only from, gm, templates and http are read here, leniently: a GM's shell need
// not hold the servers' passwords. `orrery serve` checks the whole file.
// A command that is forwarded to a running daemon gets the daemon's own
// mail hook instead (see runDaemon), so mails are never queued twice.
func mailOptions(e *env, cfgPath string) ([]game.Option, error) {
	if cfgPath == "" {
		cfgPath = os.Getenv("ORRERY_CONFIG")
	}
	if cfgPath == "" {
		return nil, nil
	}
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	var c struct {
		From      string      `yaml:"from"`
		GM        string      `yaml:"gm"`
		Templates string      `yaml:"templates"`
		HTTP      config.HTTP `yaml:"http"`
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("config %s: %w", cfgPath, err)
	}
	if c.From == "" {
		return nil, nil
	}
	m, err := daemon.NewMailer(c.From, c.GM, c.Templates, e.rulesets)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", cfgPath, err)
	}
	// With web pages, welcome mails queued here link to each player's
	// private page as the daemon's would.
	if c.HTTP.Listen != "" {
		if err := c.HTTP.Check(); err != nil {
			return nil, fmt.Errorf("config %s: %w", cfgPath, err)
		}
		m.WebLink = web.PrivateLink(c.HTTP.URL)
	}
	return []game.Option{game.WithHooks(m.Hook)}, nil
}

// bouncePolicy is the config's bounces section (the defaults without a
// config), for the commands that show an address's state.
func bouncePolicy(cfgPath string) bounce.Policy {
	if cfgPath == "" {
		cfgPath = os.Getenv("ORRERY_CONFIG")
	}
	var c struct {
		Bounces config.Bounces `yaml:"bounces"`
	}
	if data, err := os.ReadFile(cfgPath); err == nil && cfgPath != "" {
		yaml.Unmarshal(data, &c)
	}
	return bounce.Policy{HardLimit: c.Bounces.HardLimit, Window: c.Bounces.Within}.WithDefaults()
}

// wirePictures lets sender draw the board picture of each report when the
// mail is sent (d's mailer describes it when the report is queued): a
// picture is never stored in the queue.
func wirePictures(d *daemon.Daemon, sender *outbox.SMTP) {
	sender.Pictures = d.Picture
}
