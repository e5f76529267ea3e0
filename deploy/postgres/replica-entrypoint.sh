#!/bin/sh
# The `scale` profile's hot standby: on its first start, a base backup of the primary
# (pg_basebackup -R writes standby.signal and primary_conninfo), then the image's own
# entrypoint runs it as a streaming replica that serves READ_DATABASE_URL's reads.
set -eu
: "${REPLICATION_PASSWORD:?set REPLICATION_PASSWORD in .env (openssl rand -hex 32) for the scale profile}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  until gosu postgres pg_isready -h postgres -p 5432 -q; do sleep 1; done
  gosu postgres env PGPASSWORD="$REPLICATION_PASSWORD" \
    pg_basebackup -h postgres -p 5432 -U replicator -D "$PGDATA" -R -X stream --checkpoint=fast
fi
exec docker-entrypoint.sh postgres -c hot_standby=on
