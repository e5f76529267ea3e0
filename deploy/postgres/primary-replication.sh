#!/bin/sh
# Runs once, when the primary's data directory is first made (docker-entrypoint-initdb.d):
# creates the role the `scale` profile's replica streams as, and lets it connect for
# replication. With REPLICATION_PASSWORD unset it does nothing (no replica, no role).
# On a primary made before this script existed, run the same two steps by hand (README,
# "Running at scale").
set -eu
if [ -z "${REPLICATION_PASSWORD:-}" ]; then
  echo "REPLICATION_PASSWORD unset: no replication role made"
  exit 0
fi
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v password="$REPLICATION_PASSWORD" <<'SQL'
create role replicator with replication login password :'password';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
