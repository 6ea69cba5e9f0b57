package pbemtest

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// TokenCommand writes, in dir, a shell script for config's
// oauth2.token_command: run with one argument (say "imap"), it prints
// {"access_token": "imap-N", "expires_in": <lifetime>}, N counting its runs
// with that argument from 1. A test can then tell a refreshed token from
// the first one (AcceptTokens("imap-2")) and count refreshes. It returns
// the script's path.
func TokenCommand(t TB, dir string, lifetime time.Duration) string {
	t.Helper()
	script := filepath.Join(dir, "token.sh")
	body := fmt.Sprintf("#!/bin/sh\necho x >> %[1]s/$1\nn=$(wc -l < %[1]s/$1)\n"+
		"echo \"{\\\"access_token\\\": \\\"$1-$n\\\", \\\"expires_in\\\": %[2]d}\"\n", dir, int(lifetime.Seconds()))
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatalf("write the token command: %v", err)
	}
	return script
}
