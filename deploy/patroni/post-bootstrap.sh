#!/bin/sh
# Run once by Patroni on the node that bootstraps the cluster (initdb), with a connection
# string as $1: the owner role the migration connects as (as the single stack's postgres
# image makes it), the wallet database, and the pgBackRest stanza WAL is archived into.
set -eu
psql "$1" -v ON_ERROR_STOP=1 -v owner_password="$POSTGRES_PASSWORD" <<'SQL'
create role wallet_owner with login superuser password :'owner_password';
create database wallet owner wallet_owner;
SQL
# Until the stanza exists archive-push fails and WAL waits in pg_wal (docs/operations.md,
# "Running the ha profile": run stanza-create by hand then).
pgbackrest --stanza=wallet stanza-create || echo 'pgbackrest stanza-create failed: run it on the leader by hand' >&2
