package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"orrery/pbem/config"
	"orrery/pbem/doctor"
	"orrery/pbem/outbox"
)

const mailDoctorAbout = `Checks what the From domain publishes in DNS against what Gmail, Yahoo
and Outlook ask of senders of bulk mail, and prints, for each record, what
is missing or wrong and the record to publish:

  SPF    one v=spf1 record at the domain that names the SMTP relay's address
  DKIM   the selector's key at SELECTOR._domainkey.DOMAIN (the key of
         dkim.key_file when Orrery signs; --selector for your relay's)
  DMARC  a v=DMARC1 record at _dmarc.DOMAIN with a policy (p=none to start,
         with rua= for the reports), aligned with From
  MX     where players' replies and bounces go (Orrery's own need)
  PTR    a reverse DNS name of the relay's address that resolves back to it

It asks the system's resolver, so run it where the domain's records are
visible. A relay on this machine (smtp.server localhost) hides the address
mail leaves from: --relay-ip names it. A check that cannot be made is
"skipped". Exits 0 when nothing Gmail's bulk-sender rules ask for is
missing; orrery serve makes the same checks at start and logs one warning
per problem.`

func mailDoctor(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "mail doctor", "mail doctor [--config FILE] [--selector S] [--relay-ip IP]", mailDoctorAbout)
	cfgPath := fs.String("config", "", "config file (default: ORRERY_CONFIG): from, smtp.server and dkim")
	selector := fs.String("selector", "", "the DKIM selector your relay signs with (default: dkim.selector)")
	relayIP := fs.String("relay-ip", "", "the public address mail leaves from (default: smtp.server's)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("usage: orrery mail doctor [--config FILE] [--selector S] [--relay-ip IP]")
	}
	path := configPath(*cfgPath)
	cfg, err := readConfig(path)
	if err != nil {
		return err
	}
	if cfg == nil || cfg.From == "" {
		return fmt.Errorf("mail doctor needs a config with from: (--config FILE or ORRERY_CONFIG)")
	}
	in, err := doctorInput(cfg)
	if err != nil {
		return err
	}
	if *selector != "" {
		in.Selector = *selector
	}
	in.RelayIP = *relayIP
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var r doctor.Resolver = net.DefaultResolver
	if e.resolver != nil {
		r = e.resolver
	}
	rep := doctor.Run(ctx, r, in)
	rep.Write(e.stdout)
	if !rep.OK() {
		return fmt.Errorf("the domain %s does not meet the bulk-sender rules yet: publish the records above", in.Domain)
	}
	return nil
}

// doctorInput is what the config says the doctor should check.
func doctorInput(cfg *config.Config) (doctor.Input, error) {
	in := doctor.Input{Domain: outbox.Domain(cfg.From), SignDomain: cfg.DKIM.Domain, Selector: cfg.DKIM.Selector}
	if host, _, err := net.SplitHostPort(cfg.SMTP.Server); err == nil {
		in.Relay = host
	} else {
		in.Relay = cfg.SMTP.Server
	}
	s, err := cfg.DKIM.Signer(in.Domain)
	if err != nil {
		return in, err
	}
	in.Signer = s
	return in, nil
}

// reservedDomain says whether d is a name for tests and examples (RFC
// 2606, RFC 6761), which publish nothing: serve does not ask DNS about it.
func reservedDomain(d string) bool {
	d = strings.ToLower(d)
	for _, s := range []string{".test", ".example", ".invalid", ".localhost", ".local"} {
		if strings.HasSuffix(d, s) {
			return true
		}
	}
	switch d {
	case "example.org", "example.com", "example.net", "localhost":
		return true
	}
	return false
}

// doctorAtStart makes the doctor's checks when serve starts, in the
// background, and logs one warning per problem.
func doctorAtStart(cfg *config.Config, log *slog.Logger) {
	in, err := doctorInput(cfg)
	if err != nil || reservedDomain(in.Domain) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		rep := doctor.Run(ctx, net.DefaultResolver, in)
		for _, p := range rep.Problems() {
			log.Warn("mail doctor: "+p.Check+": "+p.Say, "publish", p.Publish)
		}
	}()
}
