#!/bin/sh
# install-peers.sh installs the optimisers that `boa bench` runs side by side
# with boa's samplers (package bench/peers):
#
#   optuna-tpe, optuna-cmaes, optuna-random  Debian's python3-optuna (3.1 on
#                                            bookworm), run with /usr/bin/python3
#   goptuna-tpe, goptuna-cmaes               compiled into boa; nothing to install
#
# Run as root (or it re-runs itself with sudo). Safe to run again: a package
# that is already installed is left alone.
set -eu

PKG=python3-optuna
PY=/usr/bin/python3

say() { printf 'install-peers: %s\n' "$*"; }

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		say "not root; re-running with sudo"
		exec sudo -- "$0" "$@"
	fi
	say "must run as root (apt-get installs system packages), and sudo is not available" >&2
	exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
	say "apt-get not found: this script supports Debian and Ubuntu only." >&2
	say "elsewhere install Optuna 3.x for a python3 and point BOA_PYTHON at that interpreter." >&2
	exit 1
fi

if dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'install ok installed'; then
	say "$PKG $(dpkg-query -W -f='${Version}' "$PKG") is already installed; nothing to do"
else
	say "running apt-get update"
	DEBIAN_FRONTEND=noninteractive apt-get update -q
	say "installing $PKG"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$PKG"
	say "installed $PKG $(dpkg-query -W -f='${Version}' "$PKG")"
fi

if v=$("$PY" -c 'import optuna; print(optuna.__version__)' 2>/dev/null); then
	say "$PY imports optuna $v: optuna-tpe, optuna-cmaes and optuna-random are available"
else
	say "$PY cannot import optuna after installing $PKG; check the output above" >&2
	exit 1
fi
