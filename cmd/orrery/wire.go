package main

import (
	"fmt"

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
// Only from, gm, templates and http are used here, and the file is not
// checked as serve checks it (readConfig): a GM's shell need not hold the
// servers' passwords.
// A command that is forwarded to a running daemon gets the daemon's own
// mail hook instead (see runDaemon), so mails are never queued twice.
func mailOptions(e *env, cfgPath string) ([]game.Option, error) {
	cfgPath = configPath(cfgPath)
	c, err := readConfig(cfgPath)
	if err != nil || c == nil {
		return nil, err
	}
	times := timeOptions(c)
	if c.From == "" {
		return times, nil
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
		m.UnsubURL = c.HTTP.URL
	}
	return append(times, game.WithHooks(m.Hook)), nil
}

// timeOptions are the config's time rules for the game service: every
// process that ticks the database (the daemon, game tick) keeps the same.
// readConfig leaves defaults unset; game's own defaults apply then.
func timeOptions(c *config.Config) []game.Option {
	var out []game.Option
	if c.MinNotice > 0 {
		out = append(out, game.WithMinNotice(c.MinNotice))
	}
	if c.Vacation.AllowanceDays > 0 {
		out = append(out, game.WithAllowance(c.Vacation.AllowanceDays))
	}
	return out
}

// bouncePolicy is the config's bounces section (the defaults without a
// config), for the commands that show an address's state. A config that
// does not decode is an error: a misspelt key must not quietly give the
// default policy.
func bouncePolicy(cfgPath string) (bounce.Policy, error) {
	c, err := readConfig(configPath(cfgPath))
	if err != nil {
		return bounce.Policy{}, err
	}
	var b config.Bounces
	if c != nil {
		b = c.Bounces
	}
	return bounce.Policy{HardLimit: b.HardLimit, Window: b.Within}.WithDefaults(), nil
}

// wirePictures lets sender draw the board picture of each report when the
// mail is sent (d's mailer describes it when the report is queued): a
// picture is never stored in the queue.
func wirePictures(d *daemon.Daemon, sender *outbox.SMTP) {
	sender.Pictures = d.Picture
}
