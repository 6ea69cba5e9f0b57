#!/bin/bash
# mailstack.sh: a throwaway loopback mail stack for Orrery's end-to-end tests.
#
#   Postfix (SMTP, 127.0.0.1) --LMTP--> Dovecot --Maildir--> Dovecot IMAP (127.0.0.1)
#
# Usage (as root):
#   scripts/mailstack.sh install   # apt-get the packages (idempotent, non-interactive)
#   scripts/mailstack.sh start     # write config under $MAILSTACK_ROOT and start both daemons
#   scripts/mailstack.sh stop      # stop them with their own commands (never by process name)
#   scripts/mailstack.sh status
#   scripts/mailstack.sh stop-dovecot | start-dovecot   # one server only, for outage tests
#   scripts/mailstack.sh stop-postfix | start-postfix   #   (pbem/soak's outage part); start-*
#                                                       #   waits for the ports, stop-* for them to close
#   scripts/mailstack.sh flush     # Postfix: retry deferred mail now (after Dovecot is back)
#   scripts/mailstack.sh clean     # stopped: remove the mail delivered so far and the logs
#                                  #   (every run adds to them; 53 GB over many sessions slowed
#                                  #   Dovecot's deliveries twofold: docs/benchmarks.md)
#   scripts/mailstack.sh bounce ADDRESS     # mail to ADDRESS bounces from now on: Postfix
#   scripts/mailstack.sh unbounce ADDRESS   #   takes it, then returns it with a DSN (5.2.2)
#   eval "$(scripts/mailstack.sh env)"   # export what the Go e2e tests read
#
# Every recipient of every domain is delivered locally (catch-all), so a test
# reads the bot's reply to someone@example.org by logging in to IMAP as that
# address with any password. Nothing leaves the machine, and nothing in /etc
# is edited: the packages' own instances are never started. Mail that comes
# in on the SMTP port gets an Authentication-Results header of Postfix's
# own (authserv-id mx.$DOMAIN, SPF from a fixed table), and any header of
# that id it came with is stripped, as a real MX does (auth_tables); mail
# handed to Dovecot over LMTP passes no Postfix and gets neither.
set -euo pipefail

ROOT=${MAILSTACK_ROOT:-/tmp/orrery-mailstack}   # absolute, outside /root, made 0755
IMAP_PORT=${MAILSTACK_IMAP_PORT:-1143}
SMTP_PORT=${MAILSTACK_SMTP_PORT:-2525}
LMTP_PORT=${MAILSTACK_LMTP_PORT:-2424}
AUTH_PORT=${MAILSTACK_AUTH_PORT:-12345}           # Dovecot SASL, for Postfix AUTH
DOMAIN=${MAILSTACK_DOMAIN:-pbem.test}
AUTHSERV_ID=mx.$DOMAIN   # the authserv-id of the Authentication-Results Postfix writes

case $ROOT in
  /*) ;;
  *) echo "mailstack: MAILSTACK_ROOT must be an absolute path (postfix -c needs one)" >&2; exit 2 ;;
esac

install() {
  if command -v dovecot >/dev/null && command -v postfix >/dev/null &&
     [ -e /usr/lib/dovecot/lmtp ] && [ -e /usr/lib/dovecot/imap ]; then
    echo "mailstack: dovecot and postfix already installed"
    return 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
  echo "postfix postfix/mailname string $DOMAIN" | debconf-set-selections
  apt-get install -y -qq --no-install-recommends dovecot-imapd dovecot-lmtpd postfix >/dev/null
  echo "mailstack: installed dovecot and postfix"
}

write_configs() {
  mkdir -p "$ROOT/etc/postfix"
  cat >"$ROOT/etc/dovecot.conf" <<EOF
# Written by scripts/mailstack.sh; throwaway.
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $ROOT/run/dovecot
state_dir = $ROOT/run/dovecot-state
instance_name = orrery-mailstack
log_path = $ROOT/log/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
passdb {
  driver = static
  args = nopassword=y
}
first_valid_uid = 8
first_valid_gid = 8
userdb {
  driver = static
  args = uid=mail gid=mail home=$ROOT/mail/%d/%n
}
mail_location = maildir:~/Maildir
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
service auth {
  inet_listener {
    address = 127.0.0.1
    port = $AUTH_PORT
  }
}
protocol imap {
  mail_max_userip_connections = 200
}
protocol lmtp {
  postmaster_address = postmaster@$DOMAIN
}
EOF
  cat >"$ROOT/etc/postfix/main.cf" <<EOF
# Written by scripts/mailstack.sh; throwaway.
compatibility_level = 3.6
queue_directory = $ROOT/spool/postfix
data_directory = $ROOT/data/postfix
maillog_file = $ROOT/log/postfix.log
maillog_file_prefixes = $ROOT, /dev/stdout
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = $DOMAIN
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
relayhost =
relay_domains = $DOMAIN
default_transport = lmtp:inet:127.0.0.1:$LMTP_PORT
relay_transport = lmtp:inet:127.0.0.1:$LMTP_PORT
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$AUTH_PORT
smtpd_tls_security_level = none
smtp_tls_security_level = none
lmtp_tls_security_level = none
message_size_limit = 10240000
biff = no
append_dot_mydomain = no
recipient_delimiter = +
# Authentication-Results as a real MX writes them (see auth_tables): the
# client's own headers with our authserv-id are dropped on the way in, and
# smtpd prepends ours, with the SPF verdict of a fixed table.
smtpd_data_restrictions = check_sender_access regexp:$ROOT/etc/postfix/spf
header_checks = regexp:$ROOT/etc/postfix/header_checks
lmtp_header_checks = regexp:$ROOT/etc/postfix/lmtp_header_checks
EOF
  auth_tables
  cat >"$ROOT/etc/postfix/master.cf" <<EOF
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
EOF
  # Postfix naps ~2 s on config files younger than a second: backdate them.
  touch -d '2000-01-01' "$ROOT/etc/postfix/main.cf" "$ROOT/etc/postfix/master.cf"
}

# auth_tables writes the tables that make this Postfix add and strip
# Authentication-Results as a real MX does (RFC 8601 section 5: a receiver
# deletes the headers that claim its own authserv-id, and adds its own on
# top). Verified on this Postfix (3.7.11, Debian 12) by hand and by
# TestForgedAuthResultsThroughPostfix in pbem/hostile:
#
#  - smtpd's PREPEND (an access-table action of the spf table below)
#    lands above smtpd's own Received header, below the Received header
#    Dovecot's LMTP adds on delivery. It runs in smtpd_data_restrictions,
#    once per mail: in smtpd_sender_restrictions it ran once per RCPT, and
#    a mail to three recipients arrived with three copies (tried).
#  - cleanup's header_checks DO see the headers smtpd prepends: a plain
#    "IGNORE every header with our id" also removed ours (tried: the mail
#    arrived with no header of our id). So ours carries a comment with a
#    key made at start, "(mailstack KEY)"; the first header_checks rule
#    lets exactly that form through (DUNNO), the second drops every other
#    header with our id: any case, with a version ("mx.pbem.test 1;"),
#    quoted, with a final dot, or after a comment. The key is new at each
#    start and on delivery lmtp_header_checks removes it again, so no
#    mailbox ever shows it to a sender who could copy it.
#  - The mail Postfix writes itself (bounce(8)'s DSNs) does not pass
#    smtpd, and has no header of our id.
#  - Result, for a mail from envelope evil@evil.example carrying a forged
#    "Authentication-Results: mx.pbem.test; spf=pass ..." (and variants
#    in other case, with a version, after a comment): in the mailbox it
#    has exactly one header with our id, ours, spf=fail for
#    evil@evil.example, between the two Received headers; another
#    server's header (mx.relay.example) is kept, as a real MX keeps it.
#
# A real MX gets the verdict from a milter (OpenDMARC, rspamd), whose
# headers header_checks never sees; this stack has no SPF check and no
# DNS, so the spf table is a test-only "DNS", a fixed table on the
# envelope sender: every domain passes (as if its record allowed
# 127.0.0.1) except evil.example, whose pretend record is -all; the null
# sender of bounces, and an address with characters outside a plain
# local@domain (which could smuggle a ";" into the header), get none.
auth_tables() {
  local id=${AUTHSERV_ID//./\\.} key
  key=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
  {
    echo "# Written by scripts/mailstack.sh: a test-only SPF \"DNS\" (see auth_tables)."
    printf '/^([-a-z0-9._+=]+@evil\\.example)$/ PREPEND Authentication-Results: %s; spf=fail smtp.mailfrom=$1 (mailstack %s)\n' "$AUTHSERV_ID" "$key"
    printf '/^([-a-z0-9._+=]+@[-a-z0-9.]+)$/ PREPEND Authentication-Results: %s; spf=pass smtp.mailfrom=$1 (mailstack %s)\n' "$AUTHSERV_ID" "$key"
    printf '/./ PREPEND Authentication-Results: %s; spf=none (mailstack %s)\n' "$AUTHSERV_ID" "$key"
  } >"$ROOT/etc/postfix/spf"
  {
    echo "# Written by scripts/mailstack.sh: incoming headers that claim our authserv-id."
    printf '/^Authentication-Results: %s; spf=[a-z]+( smtp\\.mailfrom=[-a-z0-9._+=]+@[-a-z0-9.]+)? \\(mailstack %s\\)$/ DUNNO\n' "$id" "$key"
    printf '/^Authentication-Results:[[:space:]]*(\\([^)]*\\)[[:space:]]*)*"?%s\\.?"?([[:space:];(]|$)/ IGNORE\n' "$id"
  } >"$ROOT/etc/postfix/header_checks"
  {
    echo "# Written by scripts/mailstack.sh: the key of our own header, removed on delivery."
    printf '/^(Authentication-Results: %s; .*) \\(mailstack %s\\)$/ REPLACE $1\n' "$id" "$key"
  } >"$ROOT/etc/postfix/lmtp_header_checks"
  touch -d '2000-01-01' "$ROOT/etc/postfix/spf" "$ROOT/etc/postfix/header_checks" "$ROOT/etc/postfix/lmtp_header_checks"
}

wait_port() {
  for _ in $(seq 1 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "mailstack: port $1 did not open; see $ROOT/log/" >&2
  return 1
}

running() {
  [ -f "$ROOT/run/dovecot/master.pid" ] && kill -0 "$(cat "$ROOT/run/dovecot/master.pid")" 2>/dev/null
}

start() {
  if ! command -v dovecot >/dev/null || ! command -v postfix >/dev/null; then
    echo "mailstack: dovecot/postfix missing; run: $0 install" >&2
    exit 1
  fi
  if running; then
    echo "mailstack: already running under $ROOT (stop first)" >&2
    exit 1
  fi
  mkdir -p "$ROOT"
  chmod 755 "$ROOT"     # uid mail and postfix must traverse it
  write_configs
  mkdir -p "$ROOT"/{run,log,mail,spool/postfix,data/postfix}
  chown mail:mail "$ROOT/mail"
  chown postfix "$ROOT/data/postfix"
  # Dovecot keeps its caller's stderr open: never hand it a pipe.
  dovecot -c "$ROOT/etc/dovecot.conf" </dev/null >>"$ROOT/log/dovecot.stderr" 2>&1
  postfix -c "$ROOT/etc/postfix" start </dev/null >>"$ROOT/log/postfix.stderr" 2>&1
  for p in "$IMAP_PORT" "$LMTP_PORT" "$SMTP_PORT" "$AUTH_PORT"; do wait_port "$p"; done
  echo "mailstack: running under $ROOT (IMAP 127.0.0.1:$IMAP_PORT, SMTP 127.0.0.1:$SMTP_PORT)"
}

# clean removes what every run leaves behind: the mail delivered to every
# test address, and the servers' logs. The stack must be stopped; start
# makes the directories again.
clean() {
  if running; then
    echo "mailstack: running under $ROOT: stop it first ($0 stop)" >&2
    exit 1
  fi
  local size
  size=$(du -sch "$ROOT/mail" "$ROOT/log" 2>/dev/null | tail -1 | cut -f1)
  rm -rf "$ROOT/mail" "$ROOT/log"
  echo "mailstack: removed the delivered mail and the logs under $ROOT (${size:-0})"
}

stop() {
  [ -f "$ROOT/etc/postfix/main.cf" ] && postfix -c "$ROOT/etc/postfix" stop </dev/null >/dev/null 2>&1 || true
  [ -f "$ROOT/etc/dovecot.conf" ] && dovecot -c "$ROOT/etc/dovecot.conf" stop </dev/null >/dev/null 2>&1 || true
  echo "mailstack: stopped"
}

# wait_closed waits until nothing listens on port $1 any more.
wait_closed() {
  for _ in $(seq 1 200); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "mailstack: port $1 is still open; see $ROOT/log/" >&2
  return 1
}

configured() {
  if [ ! -f "$ROOT/etc/postfix/main.cf" ] || [ ! -f "$ROOT/etc/dovecot.conf" ]; then
    echo "mailstack: no stack under $ROOT (run: $0 start)" >&2
    exit 1
  fi
}

# The single-server commands use each server's own control command on this
# stack's configuration only, so another stack on other ports (another
# MAILSTACK_ROOT) is never touched.
stop_dovecot() {
  configured
  dovecot -c "$ROOT/etc/dovecot.conf" stop </dev/null >/dev/null 2>&1 || true
  for p in "$IMAP_PORT" "$LMTP_PORT" "$AUTH_PORT"; do wait_closed "$p"; done
  echo "mailstack: dovecot stopped"
}

start_dovecot() {
  configured
  if running; then echo "mailstack: dovecot already running"; return 0; fi
  dovecot -c "$ROOT/etc/dovecot.conf" </dev/null >>"$ROOT/log/dovecot.stderr" 2>&1
  for p in "$IMAP_PORT" "$LMTP_PORT" "$AUTH_PORT"; do wait_port "$p"; done
  echo "mailstack: dovecot started"
}

stop_postfix() {
  configured
  postfix -c "$ROOT/etc/postfix" stop </dev/null >/dev/null 2>&1 || true
  wait_closed "$SMTP_PORT"
  echo "mailstack: postfix stopped"
}

start_postfix() {
  configured
  if postfix -c "$ROOT/etc/postfix" status >/dev/null 2>&1; then echo "mailstack: postfix already running"; return 0; fi
  postfix -c "$ROOT/etc/postfix" start </dev/null >>"$ROOT/log/postfix.stderr" 2>&1
  wait_port "$SMTP_PORT"
  echo "mailstack: postfix started"
}

flush() {
  configured
  postqueue -c "$ROOT/etc/postfix" -f
  echo "mailstack: postfix queue flushed"
}

# bounce makes Postfix bounce mail to one address: it accepts the mail,
# then its error(8) transport returns it to the sender with a delivery
# status notification (Action: failed, Status: 5.2.2), as a full mailbox
# behind a relay does. The transport map is read again on reload.
bounce() {
  configured
  [ -n "${1:-}" ] || { echo "usage: $0 bounce ADDRESS" >&2; exit 2; }
  local map="$ROOT/etc/postfix/transport"
  touch "$map"
  grep -qF "$1 " "$map" || echo "$1 error:5.2.2 mailbox full" >>"$map"
  transport_reload
  echo "mailstack: mail to $1 now bounces"
}

unbounce() {
  configured
  [ -n "${1:-}" ] || { echo "usage: $0 unbounce ADDRESS" >&2; exit 2; }
  local map="$ROOT/etc/postfix/transport"
  touch "$map"
  grep -vF "$1 " "$map" >"$map.new" || true
  mv "$map.new" "$map"
  transport_reload
  echo "mailstack: mail to $1 is delivered again"
}

transport_reload() {
  # smtpd would refuse an address whose transport is error(8) at RCPT;
  # the mail must be taken, so that the bounce comes as a DSN.
  postconf -c "$ROOT/etc/postfix" -e "transport_maps = texthash:$ROOT/etc/postfix/transport" \
    "smtpd_reject_unlisted_recipient = no"
  touch -d '2000-01-01' "$ROOT/etc/postfix/main.cf" "$ROOT/etc/postfix/transport"
  postfix -c "$ROOT/etc/postfix" reload </dev/null >/dev/null 2>&1
}

status() {
  if running; then
    echo "dovecot: running, master pid $(cat "$ROOT/run/dovecot/master.pid")"
  else
    echo "dovecot: not running"
  fi
  if [ -f "$ROOT/etc/postfix/main.cf" ] && postfix -c "$ROOT/etc/postfix" status >/dev/null 2>&1; then
    echo "postfix: running"
  else
    echo "postfix: not running"
  fi
  running
}

env() {
  cat <<EOF
export ORRERY_E2E_IMAP=127.0.0.1:$IMAP_PORT
export ORRERY_E2E_SMTP=127.0.0.1:$SMTP_PORT
export ORRERY_E2E_LMTP=127.0.0.1:$LMTP_PORT
export ORRERY_E2E_DOMAIN=$DOMAIN
export ORRERY_E2E_DOVEADM_CONF=$ROOT/etc/dovecot.conf
export ORRERY_E2E_POSTFIX_CONF=$ROOT/etc/postfix
EOF
}

case ${1:-} in
  install | start | stop | status | env | flush | clean) "$1" ;;
  stop-dovecot | start-dovecot | stop-postfix | start-postfix) "${1//-/_}" ;;
  bounce | unbounce) "$1" "${2:-}" ;;
  *) echo "usage: $0 install|start|stop|status|env|clean|stop-dovecot|start-dovecot|stop-postfix|start-postfix|flush|bounce ADDRESS|unbounce ADDRESS" >&2; exit 2 ;;
esac
