package main

import (
	"context"
	"fmt"
	"strings"

	"orrery/engine"
)

func runRulesets(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "rulesets", "rulesets [NAME]", "Lists the games this server can host. With a NAME, shows that ruleset's\noptions and order language.")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		for _, r := range e.rulesets {
			i := r.Info()
			fmt.Fprintf(e.stdout, "%-18s %s (%s players)\n", i.Name, i.Title, playerRange(i))
		}
		return nil
	}
	r, err := engine.Find(e.rulesets, pos[0])
	if err != nil {
		return err
	}
	i := r.Info()
	fmt.Fprintf(e.stdout, "%s (%s), %s players\n\n", i.Title, i.Name, playerRange(i))
	if i.Summary != "" {
		fmt.Fprintf(e.stdout, "%s\n\n", engine.Wrap(strings.TrimSpace(i.Summary), 78, "", ""))
	}
	if len(i.Options) > 0 {
		fmt.Fprintln(e.stdout, "Options (orrery game new ... --option NAME=VALUE):")
		for _, o := range i.Options {
			choices := ""
			if len(o.Choices) > 0 {
				choices = " [" + strings.Join(o.Choices, "|") + "]"
			}
			fmt.Fprintf(e.stdout, "  %s=%s%s\n%s\n", o.Name, o.Default, choices, engine.Wrap(o.Help, 78, "      ", "      "))
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintf(e.stdout, "Orders:\n%s\n", strings.TrimRight(i.OrderHelp, "\n"))
	return nil
}

func playerRange(i engine.Info) string {
	if i.MinPlayers == i.MaxPlayers {
		return fmt.Sprint(i.MinPlayers)
	}
	return fmt.Sprintf("%d–%d", i.MinPlayers, i.MaxPlayers)
}
