// Package e2e holds the mail daemon's end-to-end tests and benchmarks
// against real servers: Postfix takes SMTP and hands mail to Dovecot, which
// serves IMAP. They run when the variables printed by
//
//	scripts/mailstack.sh install && scripts/mailstack.sh start
//	eval "$(scripts/mailstack.sh env)"
//
// are set, and skip otherwise. Every test uses fresh account names, so they
// can run against one stack again and again.
package e2e
