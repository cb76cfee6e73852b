#!/bin/sh
# Stand-in for the official postgres image: initializes $PGDATA from POSTGRES_USER/PASSWORD/DB once.
set -e
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
bin=/usr/lib/postgresql/15/bin
mkdir -p "$PGDATA" /run/postgresql && chown -R postgres:postgres "$PGDATA" /run/postgresql && chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pw=$(mktemp) && echo "$POSTGRES_PASSWORD" > "$pw" && chown postgres "$pw"
  su postgres -c "$bin/initdb -D $PGDATA -U ${POSTGRES_USER:-postgres} --pwfile=$pw --auth-host=scram-sha-256 --auth-local=trust" >/dev/null
  rm -f "$pw"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  su postgres -c "$bin/pg_ctl -D $PGDATA -o '-c listen_addresses=' -w start" >/dev/null
  su postgres -c "psql -U ${POSTGRES_USER:-postgres} -d postgres -qc 'create database \"${POSTGRES_DB:-postgres}\"'" || true
  su postgres -c "$bin/pg_ctl -D $PGDATA -m fast -w stop" >/dev/null
fi
exec su postgres -c "exec $bin/postgres -D $PGDATA"
