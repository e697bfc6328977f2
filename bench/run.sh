#!/usr/bin/env bash
# Measures unibox beside aerc on a throwaway loopback Dovecot (see
# bench/README.md):
#
#   bash bench/run.sh launch [-runs N] [-messages N]
#   bash bench/run.sh memory [-accounts N] [-settle 60s]
#   bash bench/run.sh soak   [-accounts N] [-duration 30m]
#   bash bench/run.sh smoke  (CI: launch once, small, unibox alone)
#
# Starts Dovecot the way the tests do (.ci/dovecot.sh), builds unibox
# (-trimpath, as CI) and the harness, installs tmux and aerc from
# Debian's packages when missing, and prints the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:?usage: bash bench/run.sh launch|memory|soak [flags]}
shift
export PATH="$PATH:/usr/sbin:/sbin"
need() {
	command -v "$1" >/dev/null 2>&1 && return
	if command -v apt-get >/dev/null 2>&1; then
		echo "bench: installing $2" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
	fi
}
need tmux tmux
[ "$what" = smoke ] || need aerc aerc
work=$(mktemp -d)
dovecot="$work/dovecot"
mkdir -p "$dovecot"
cleanup() { bash .ci/dovecot.sh stop "$dovecot" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
set -a
eval "$(bash .ci/dovecot.sh start "$dovecot")"
set +a
go build -trimpath -o "$work/unibox" .
go build -o "$work/harness" ./bench/harness
aerc=aerc
command -v aerc >/dev/null 2>&1 || aerc=""
if [ "$what" = smoke ]; then
	# Not exec: the EXIT trap must still stop this Dovecot (exec left it
	# running after every CI run).
	"$work/harness" launch -unibox "$work/unibox" -aerc "" -runs 1 -messages 30
	exit 0
fi
"$work/harness" "$what" -unibox "$work/unibox" -aerc "$aerc" "$@"
