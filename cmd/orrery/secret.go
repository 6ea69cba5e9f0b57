package main

import (
	"context"
	"errors"
	"fmt"

	"orrery/pbem/config"
)

// runSecret makes secrets for the config's *_file keys: `orrery secret new`
// prints a fresh GM secret, or writes it owner-only with --out.
func runSecret(_ context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] != "new" {
		if len(args) > 0 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
			args = []string{"new", "--help"}
		} else {
			return errors.New("usage: orrery secret new [--out FILE]")
		}
	}
	fs := flags(e, "secret new", "secret new [--out FILE]",
		"Makes a GM secret: 26 random lowercase letters and digits (128 bits).\n"+
			"It goes in the file named by gm_secret_file (or the variable named by\n"+
			"gm_secret_env); the GM writes it on a line SECRET ... of GM mails.\n\n"+
			"  orrery secret new --out /etc/orrery/gm-secret")
	out := fs.String("out", "", "write it to FILE (created owner-only, 0600; must not exist) instead of printing it")
	if rest, err := parse(fs, args[1:]); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("secret new takes no arguments, got %q", rest)
	}
	s := config.NewSecret()
	if *out == "" {
		fmt.Fprintln(e.stdout, s)
		return nil
	}
	if err := writePrivate(*out, []byte(s+"\n")); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote a new GM secret to %s (mode 0600)\n", *out)
	return nil
}

// writePrivate creates path owner-only (0600, whatever the umask) and
// writes data; it never overwrites an existing file, whose mode it could
// not vouch for, nor writes through a symbolic link (writeOut).
func writePrivate(path string, data []byte) error {
	return writeOut(path, data, 0o600, newFile)
}

// writeOwnerOnly writes data to path, which ends up mode 0600 whether it is
// new or was there before: a new file renamed into place, never written
// through a symbolic link (writeOut).
func writeOwnerOnly(path string, data []byte) error {
	return writeOut(path, data, 0o600, replaceFile)
}
