#!/usr/bin/env bash
# Throwaway Dovecot 2.3 IMAP server for unibox integration tests.
#
#   bash .ci/dovecot.sh start DIR       start an instance living entirely in DIR
#   bash .ci/dovecot.sh stop DIR        stop it and wait until its ports are free
#   bash .ci/dovecot.sh kick DIR USER   drop all of USER's IMAP sessions
#                                       (exit 1 if USER has none)
#
# `start` prints exactly four KEY=VALUE lines on stdout (and writes them to
# DIR/env); everything else goes to stderr:
#   UNIBOX_DOVECOT_ADDR=127.0.0.1:<port>      plain IMAP, STARTTLS offered
#   UNIBOX_DOVECOT_TLS_ADDR=127.0.0.1:<port>  implicit TLS (imaps)
#   UNIBOX_DOVECOT_CERT=DIR/cert.pem          self-signed, CN=localhost, SAN IP:127.0.0.1
#   UNIBOX_DOVECOT_DIR=DIR
#
# Users: alice/alice-pw, bob/bob-pw, carol/carol-pw, dave/dave-pw, all with
# Archive, Trash, Sent, Drafts, Junk (special-use, subscribed) next to INBOX.
# No per-user connection limit (see mail_max_userip_connections below).
#
# DIR holds everything: dovecot.conf, dovecot.log, users, cert.pem/key.pem,
# env, run/ (base_dir), state/, mail/USER/Maildir. DIR may sit below 0700
# directories (t.TempDir()); it must not contain whitespace.
#
# With UNIBOX_DOVECOT_OAUTH2_URL=http://127.0.0.1:PORT/PATH in the
# environment of `start`, the instance also offers AUTHENTICATE XOAUTH2 and
# OAUTHBEARER: a second passdb (driver oauth2) checks each token by POSTing
# token=TOKEN to that URL (RFC 7662 introspection), and expects
# {"active": true, "username": "USER"} for a valid token of USER. A test
# starts its own instance this way, with an endpoint it controls (expiry,
# revocation, an endpoint that is down). Password logins work as before.
#
# Must be run as root (Dovecot's master needs it to switch to the mail uid).
# The system instance in /etc/dovecot is never used. Several instances with
# different DIRs can run side by side.
set -euo pipefail

# Mail processes run as this uid/gid. They need not exist in /etc/passwd;
# Dovecot refuses to run mail processes as root.
MAIL_UID=5000
MAIL_GID=5000
# Test users (password USER-pw); packages testing in parallel take distinct
# ones (erin: the store's search benchmark against Dovecot; frank: the
# accounts package, rules).
USERS=(alice bob carol dave erin frank)

log() { printf 'dovecot.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
	echo "usage: $0 start DIR | stop DIR | kick DIR USER" >&2
	exit 2
}

export PATH="$PATH:/usr/sbin:/sbin"

# ---------------------------------------------------------------- install --

# Stop a system Dovecot that a package postinst may have started (it would
# sit on :143/:993; our instance must not depend on or collide with it).
stop_system_dovecot() {
	if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
		systemctl disable --now dovecot.service dovecot.socket >/dev/null 2>&1 || true
	fi
	local pidf=/run/dovecot/master.pid pid
	if [ -f "$pidf" ] && pid=$(cat "$pidf") && kill -0 "$pid" 2>/dev/null; then
		log "stopping the system dovecot (pid $pid) started by the package"
		doveadm -c /etc/dovecot/dovecot.conf stop >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
	fi
}

ensure_installed() {
	command -v dovecot >/dev/null 2>&1 && command -v doveadm >/dev/null 2>&1 && return 0
	# Two parallel `start`s on a fresh machine would fight over the dpkg lock.
	exec 9>/var/lock/unibox-dovecot-install.lock
	flock 9
	if ! command -v dovecot >/dev/null 2>&1; then
		log "installing dovecot-imapd with apt-get (one-off, takes a while)"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update >&2
		apt-get install -y -o DPkg::Lock::Timeout=300 dovecot-imapd >&2
		stop_system_dovecot
	fi
	flock -u 9
	exec 9>&-
	command -v dovecot >/dev/null 2>&1 || die "dovecot still not on PATH after install"
}

# ------------------------------------------------------------------ ports --

# Print two distinct free TCP ports on 127.0.0.1. Both sockets are bound at
# the same time so the kernel hands out two different ports. There is a small
# window before Dovecot binds them; start_master retries on a clash.
free_ports() {
	local py
	for py in /usr/bin/python3 python3; do
		if command -v "$py" >/dev/null 2>&1; then
			"$py" -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))
' && return 0
		fi
	done
	# Fallback: probe random high ports; a refused connect means nobody listens.
	local found=() p
	while [ "${#found[@]}" -lt 2 ]; do
		p=$((20000 + RANDOM % 40000))
		[ "${#found[@]}" -eq 1 ] && [ "${found[0]}" = "$p" ] && continue
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			found+=("$p")
		fi
	done
	echo "${found[*]}"
}

port_in_use() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# ------------------------------------------------------------------ paths --

# Resolve DIR to an absolute path without requiring it to exist.
abs_dir() {
	local d=$1
	case "$d" in /*) ;; *) d="$PWD/$d" ;; esac
	# Normalise //, /./ and trailing slashes (no symlink resolution needed).
	realpath -m -- "$d"
}

master_pid() {
	# Print the pid of DIR's running master, or fail.
	local pidf="$DIR/run/master.pid" pid
	[ -f "$pidf" ] || return 1
	pid=$(cat "$pidf" 2>/dev/null) || return 1
	[ -n "$pid" ] && alive "$pid" || return 1
	# Guard against a recycled pid: the master is run with our config path.
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DIR/dovecot.conf" || return 1
	echo "$pid"
}

# ----------------------------------------------------------------- config --

write_config() {
	local plain=$1 tls=$2 dh="" mechs="plain login" oauth2=""
	# Debian's 2.3 ships DH parameters; without them DHE suites are unavailable.
	[ -f /usr/share/dovecot/dh.pem ] && dh="ssl_dh = </usr/share/dovecot/dh.pem"
	if [ -n "${UNIBOX_DOVECOT_OAUTH2_URL:-}" ]; then
		mechs="plain login xoauth2 oauthbearer"
		write_oauth2_config
		# Tried after passwd-file: a token is never a user's password, so
		# passwd-file refuses it and this one decides.
		oauth2="passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $DIR/oauth2.conf
}"
	fi

	cat >"$DIR/dovecot.conf.tmp" <<EOF
# Generated by .ci/dovecot.sh -- throwaway test instance, do not edit.

# Unique name + private base_dir/state_dir: lets several instances coexist
# and keeps us entirely away from the system instance (/run/dovecot,
# /var/lib/dovecot, /etc/dovecot).
instance_name = $INSTANCE
base_dir = $DIR/run
state_dir = $DIR/state
log_path = $DIR/dovecot.log
info_log_path = $DIR/dovecot.log

protocols = imap
# Loopback only: plaintext auth is enabled below, never expose it.
listen = 127.0.0.1

# Plaintext LOGIN / AUTHENTICATE PLAIN without TLS: the tests use plain
# connections on loopback as well as STARTTLS and implicit TLS.
disable_plaintext_auth = no
auth_mechanisms = $mechs
# Log why logins fail (wrong password, unknown user) to dovecot.log.
auth_verbose = yes
# Default is 2 s per failed login; tests that try wrong passwords would crawl.
# Failures are still answered on a 500 ms timer, so one takes up to ~0.5 s.
auth_failure_delay = 0

# Tests open many concurrent connections per user from 127.0.0.1 (default 10).
# Over the limit, LOGIN gets:
#   NO [LIMIT] Maximum number of connections from user+IP exceeded (mail_max_userip_connections=50)
# Dovecot 2.3 checks this in imap-login against this global value only: a
# userdb/passdb extra field mail_max_userip_connections=N is accepted (doveadm
# user shows it) but has no effect, so there is no per-user limit here.
mail_max_userip_connections = 50

# Our users share uid/gid $MAIL_UID, which need not exist in /etc/passwd but
# must lie in [first_valid_uid, last_valid_uid]. Dovecot won't use root.
first_valid_uid = 100
last_valid_uid = 0
first_valid_gid = 100
last_valid_gid = 0

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $DIR/users
}
$oauth2
# The "/./" in home makes each mail process chroot to DIR/mail (as root)
# before dropping to uid $MAIL_UID, so the user's home is /USER inside the
# chroot. Without it uid $MAIL_UID would need search permission on every
# parent of DIR, which mktemp -d and Go's t.TempDir() (0700) do not give.
userdb {
  driver = static
  args = uid=$MAIL_UID gid=$MAIL_GID home=$DIR/mail/./%u
}
valid_chroot_dirs = $DIR/mail
# Relative to the chroot, i.e. DIR/mail/tmp (created 1777 by this script);
# used for temporary copies of large messages.
mail_temp_dir = /tmp

# Maildir, one directory per folder nested on disk (LAYOUT=fs) with "/" as
# the hierarchy separator, as the tests expect.
mail_location = maildir:~/Maildir:LAYOUT=fs
# Test data is throwaway: skip fsync to keep APPEND/COPY fast.
mail_fsync = never

namespace inbox {
  inbox = yes
  separator = /
  # Dovecot does not subscribe INBOX by itself; real servers do, and an
  # LSUB-driven client would otherwise not see it.
  mailbox INBOX {
    auto = subscribe
  }
  # Created and subscribed at first login, advertised via SPECIAL-USE.
  mailbox Archive {
    special_use = \\Archive
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
}

ssl = yes
ssl_cert = <$DIR/cert.pem
ssl_key = <$DIR/key.pem
$dh

service imap-login {
  # Plain IMAP; STARTTLS is offered because ssl = yes.
  inet_listener imap {
    address = 127.0.0.1
    port = $plain
  }
  # Implicit TLS.
  inet_listener imaps {
    address = 127.0.0.1
    port = $tls
    ssl = yes
  }
}

# Dovecot's auth penalty: after a failed login from an IP, every later
# login from that IP -- correct ones too -- is held back 2 s, doubling up to
# 15 s. Tests that check wrong passwords would slow everything after them.
# Dovecot's documented switch-off is this listener with mode 0 (checked:
# without it a correct login right after a wrong one took 4 s).
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}

# The passwd-file lives under DIR, which may not be readable by the
# unprivileged 'dovecot' user the auth process normally runs as.
service auth {
  user = root
}
EOF
	mv "$DIR/dovecot.conf.tmp" "$DIR/dovecot.conf"
}

# The oauth2 passdb's own settings file (Dovecot 2.3 db-oauth2).
write_oauth2_config() {
	cat >"$DIR/oauth2.conf" <<EOF
introspection_mode = post
introspection_url = $UNIBOX_DOVECOT_OAUTH2_URL
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
EOF
}

make_cert() {
	[ -s "$DIR/cert.pem" ] && [ -s "$DIR/key.pem" ] && return 0
	# EC key: generated in milliseconds (RSA would cost noticeable start time).
	# Go ignores CN, so the SAN must carry both the IP and the name.
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$DIR/key.pem.tmp" -out "$DIR/cert.pem.tmp" -days 3650 \
		-subj "/CN=localhost" \
		-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" >/dev/null 2>&1 ||
		die "openssl could not create a certificate"
	chmod 600 "$DIR/key.pem.tmp"
	mv "$DIR/key.pem.tmp" "$DIR/key.pem"
	mv "$DIR/cert.pem.tmp" "$DIR/cert.pem"
}

make_users() {
	local u
	: >"$DIR/users.tmp"
	for u in "${USERS[@]}"; do
		printf '%s:{PLAIN}%s-pw::::::\n' "$u" "$u" >>"$DIR/users.tmp"
	done
	chmod 600 "$DIR/users.tmp"
	mv "$DIR/users.tmp" "$DIR/users"
}

# ------------------------------------------------------------------ start --

print_env() {
	cat "$DIR/env"
}

now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

wait_login() {
	local port=$1 deadline
	# Bounded at 10 s; usually succeeds on the first try.
	deadline=$(($(now_ms) + 10000))
	while [ "$(now_ms)" -lt "$deadline" ]; do
		if curl -s --max-time 2 "imap://127.0.0.1:$port/" -u alice:alice-pw 2>/dev/null |
			grep -q 'INBOX'; then
			return 0
		fi
		master_pid >/dev/null || return 1
		sleep 0.05
	done
	return 1
}

start_master() {
	local attempt plain tls
	for attempt in 1 2 3 4 5; do
		read -r plain tls < <(free_ports)
		write_config "$plain" "$tls"
		# dovecot binds its listeners before daemonizing, so a port grabbed
		# by someone else since free_ports shows up as a non-zero exit here.
		if dovecot -c "$DIR/dovecot.conf" 2>>"$DIR/dovecot.log"; then
			PLAIN_PORT=$plain
			TLS_PORT=$tls
			return 0
		fi
		if tail -n 5 "$DIR/dovecot.log" | grep -q 'Address already in use'; then
			log "port clash on $plain/$tls, retrying ($attempt)"
			continue
		fi
		return 1
	done
	return 1
}

cmd_start() {
	if pid=$(master_pid); then
		if [ -s "$DIR/env" ]; then
			log "instance in $DIR already running (pid $pid)"
			print_env
			return 0
		fi
		# Running but half set up: restart it cleanly.
		cmd_stop
	fi

	ensure_installed

	mkdir -p "$DIR/run" "$DIR/state" "$DIR/mail/tmp"
	make_cert
	make_users
	local u
	for u in "${USERS[@]}"; do mkdir -p "$DIR/mail/$u"; done
	# Mail processes run as $MAIL_UID inside the DIR/mail chroot.
	chown -R "$MAIL_UID:$MAIL_GID" "$DIR/mail"
	chmod 0755 "$DIR/mail"
	chmod 1777 "$DIR/mail/tmp"
	rm -f "$DIR/env"

	if ! start_master; then
		log "dovecot failed to start; tail of $DIR/dovecot.log:"
		tail -n 30 "$DIR/dovecot.log" >&2 || true
		exit 1
	fi
	if ! wait_login "$PLAIN_PORT"; then
		log "dovecot did not accept a login as alice; tail of $DIR/dovecot.log:"
		tail -n 30 "$DIR/dovecot.log" >&2 || true
		cmd_stop || true
		exit 1
	fi

	cat >"$DIR/env.tmp" <<EOF
UNIBOX_DOVECOT_ADDR=127.0.0.1:$PLAIN_PORT
UNIBOX_DOVECOT_TLS_ADDR=127.0.0.1:$TLS_PORT
UNIBOX_DOVECOT_CERT=$DIR/cert.pem
UNIBOX_DOVECOT_DIR=$DIR
EOF
	mv "$DIR/env.tmp" "$DIR/env"
	log "dovecot up in $DIR (imap $PLAIN_PORT, imaps $TLS_PORT)"
	print_env
}

# ------------------------------------------------------------------- stop --

listen_ports() {
	# Ports from the config, so stop works even if env was never written.
	[ -f "$DIR/dovecot.conf" ] || return 0
	sed -n 's/^[[:space:]]*port = \([0-9]*\)$/\1/p' "$DIR/dovecot.conf"
}

# True while PID runs. A dead daemon stays a zombie until init reaps it,
# which in some containers takes a second or two; kill -0 can't tell.
alive() {
	local state
	# Field 3 of /proc/PID/stat; the command name before it may hold spaces.
	state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	state=${state%% *}
	[ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# Pids of processes left over from this instance: every child of the master
# names itself "dovecot-<instance_name>/<service>", which is unique per DIR.
instance_pids() {
	ps -eo pid=,args= | awk -v p="dovecot-$INSTANCE/" 'index($2, p) == 1 { print $1 }'
}

cmd_stop() {
	local pid i p busy left=()
	if pid=$(master_pid); then
		# A graceful stop (SIGTERM or `doveadm stop`) keeps the listeners
		# open while the master SIGQUITs its children and sleeps, 1-3 s in
		# all. Nothing in it matters for a throwaway instance, so kill the
		# master outright: it can no longer respawn anything, and its
		# listening sockets close with it.
		kill -KILL "$pid" 2>/dev/null || true
		for i in $(seq 1 100); do
			alive "$pid" || break
			sleep 0.02
		done
	else
		log "no running instance in $DIR"
	fi
	# Then the children. SIGTERM makes an imap process send
	# "* BYE Server shutting down." and exit at once (left to itself after
	# losing the master it lingers ~10 s); the rest just exit.
	for i in $(seq 1 100); do
		mapfile -t left < <(instance_pids)
		[ "${#left[@]}" -eq 0 ] && break
		if [ "$i" -lt 60 ]; then
			kill -TERM "${left[@]}" 2>/dev/null || true
		else
			kill -KILL "${left[@]}" 2>/dev/null || true
		fi
		sleep 0.02
	done
	[ "${#left[@]}" -eq 0 ] || die "processes of $INSTANCE still running: ${left[*]}"
	for i in $(seq 1 100); do
		busy=""
		for p in $(listen_ports); do
			port_in_use "$p" && busy="$busy $p"
		done
		[ -z "$busy" ] && break
		sleep 0.05
	done
	[ -n "$busy" ] && die "ports still in use after stop:$busy"
	rm -f "$DIR/env" "$DIR/run/master.pid"
	log "stopped instance in $DIR"
}

# ------------------------------------------------------------------- kick --

cmd_kick() {
	local user=$1
	local i rc out
	master_pid >/dev/null || die "no running instance in $DIR"
	# doveadm looks the user's sessions up in this instance's anvil and
	# signals them; clients get "* BYE Server shutting down." and EOF.
	# It exits 68 when it finds no session. In case a session whose LOGIN
	# just returned OK is not registered in anvil yet (not seen in 30 tries,
	# but cheap insurance), retry for about a second before failing.
	for i in $(seq 1 20); do
		rc=0
		out=$(doveadm -c "$DIR/dovecot.conf" kick "$user" 2>&1) || rc=$?
		if [ "$rc" -eq 0 ]; then
			printf '%s\n' "$out" >&2
			return 0
		fi
		[ "$rc" -eq 68 ] || die "doveadm kick $user failed (exit $rc): $out"
		sleep 0.05
	done
	die "no IMAP sessions of $user to kick"
}

# ------------------------------------------------------------------- main --

[ "$#" -ge 2 ] || usage
[ "$(id -u)" -eq 0 ] || die "must run as root"
CMD=$1
DIR=$(abs_dir "$2")
# DIR ends up unquoted in dovecot.conf (passdb args, chroot home).
case "$DIR" in *[[:space:]]*) die "DIR must not contain whitespace: $DIR" ;; esac
# instance_name must differ between instances that run at the same time.
INSTANCE="unibox-$(printf '%s' "$DIR" | cksum | cut -d' ' -f1)"

case "$CMD" in
start) [ "$#" -eq 2 ] || usage; cmd_start ;;
stop) [ "$#" -eq 2 ] || usage; cmd_stop ;;
kick) [ "$#" -eq 3 ] || usage; cmd_kick "$3" ;;
*) usage ;;
esac
