#!/usr/bin/env bash
# ci-postgres.sh — install (Debian's postgresql), start, and provision a local
# PostgreSQL server for boa's storage tests, then print the line that points
# the tests at it:
#
#   export BOA_TEST_POSTGRES_URL=postgres://boa:boa@127.0.0.1:PORT/boa?sslmode=disable
#
# Use it either way (as root on Debian; safe to run again and again):
#
#   eval "$(bash scripts/ci-postgres.sh)"   # run, then eval the printed line
#   . scripts/ci-postgres.sh                # source: exports the variable too
#
# Progress goes to stderr; stdout carries only the export line, so eval is safe.
# Environment knobs: BOA_PG_USER, BOA_PG_PASSWORD, BOA_PG_DB (all default "boa").

_boa_ci_postgres() (
	set -euo pipefail
	user=${BOA_PG_USER:-boa}
	pass=${BOA_PG_PASSWORD:-boa}
	db=${BOA_PG_DB:-boa}
	log() { echo "ci-postgres: $*" >&2; }

	if [ "$(id -u)" -ne 0 ]; then
		log "must run as root (it installs and starts the server)"
		return 1
	fi

	if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
		log "installing Debian's postgresql"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update >&2
		apt-get install -y --no-install-recommends postgresql >&2
	fi

	ver=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
	if [ -z "$ver" ]; then
		log "no PostgreSQL version found under /usr/lib/postgresql"
		return 1
	fi
	# The package normally creates the "main" cluster; a minimal image (or a
	# policy-rc.d that forbids it) may not have.
	if ! pg_lsclusters -h 2>/dev/null | awk -v v="$ver" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
		log "creating cluster $ver/main"
		pg_createcluster "$ver" main >&2
	fi
	status=$(pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main" { print $4 }')
	if [ "$status" != "online" ]; then
		log "starting cluster $ver/main"
		pg_ctlcluster "$ver" main start >&2
	fi
	port=$(pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main" { print $3 }')

	for _ in $(seq 1 60); do
		if pg_isready -q -h 127.0.0.1 -p "$port"; then
			break
		fi
		sleep 0.5
	done
	if ! pg_isready -q -h 127.0.0.1 -p "$port"; then
		log "server on 127.0.0.1:$port did not become ready; see /var/log/postgresql/postgresql-$ver-main.log"
		return 1
	fi

	psql_pg() { (cd / && runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -qtA "$@"); }
	if [ "$(psql_pg -c "SELECT 1 FROM pg_roles WHERE rolname = '$user'")" != "1" ]; then
		log "creating role $user"
		psql_pg -c "CREATE ROLE \"$user\" LOGIN PASSWORD '$pass'" >&2
	else
		psql_pg -c "ALTER ROLE \"$user\" LOGIN PASSWORD '$pass'" >&2
	fi
	if [ "$(psql_pg -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" != "1" ]; then
		log "creating database $db"
		psql_pg -c "CREATE DATABASE \"$db\" OWNER \"$user\"" >&2
	fi

	url="postgres://$user:$pass@127.0.0.1:$port/$db?sslmode=disable"
	if ! PGPASSWORD=$pass psql "$url" -qtA -c 'SELECT 1' >/dev/null; then
		log "cannot log in as $user over TCP; check pg_hba.conf of cluster $ver/main"
		return 1
	fi
	log "PostgreSQL $ver ready on 127.0.0.1:$port"
	echo "export BOA_TEST_POSTGRES_URL=$url"
)

# Sourced: export into the caller's shell without changing its options.
# Executed: just print the export line for the caller to eval.
if (return 0 2>/dev/null); then
	if _boa_ci_postgres_line=$(_boa_ci_postgres); then
		eval "$_boa_ci_postgres_line"
		echo "$_boa_ci_postgres_line"
	else
		echo "ci-postgres: failed; BOA_TEST_POSTGRES_URL not set" >&2
	fi
	unset _boa_ci_postgres_line
	unset -f _boa_ci_postgres
else
	_boa_ci_postgres
fi
