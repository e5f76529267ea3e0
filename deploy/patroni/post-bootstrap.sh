#!/bin/sh
# Run once by Patroni on the node that bootstraps the cluster (initdb), with the superuser's
# connection string as $1 (its password in PGPASSFILE): the roles and the database the migration
# needs, then the pgBackRest stanza WAL is archived into. The failover drill runs this very
# script (reliability/patroni-cluster.ts).
#
# - wallet_owner (POSTGRES_PASSWORD) owns the wallet database, and so everything the migration
#   makes in it. No SUPERUSER, CREATEROLE or CREATEDB: the migrations need none of them
#   (pg_trgm and btree_gin are trusted extensions, which the database's owner may create), and
#   the two roles below exist already, so platform/runtime-role.ts has no role to create.
#   CREATEROLE is left out on purpose: on PostgreSQL 15 a CREATEROLE role may grant itself
#   pg_execute_server_program (COPY ... TO PROGRAM: a shell as the postgres OS user).
# - wallet_runtime (NOLOGIN) and its member wallet_app (APP_DB_PASSWORD): the runtime role and
#   the login the API and workers connect as; the migration grants the runtime role its
#   privileges after every run. Its password is changed here as the superuser
#   (ALTER ROLE wallet_app PASSWORD ...), not by the migration.
set -eu
psql "$1" -v ON_ERROR_STOP=1 -v owner_password="$POSTGRES_PASSWORD" -v app_password="$APP_DB_PASSWORD" <<'SQL'
create role wallet_owner with login nosuperuser nocreaterole nocreatedb noreplication nobypassrls password :'owner_password';
create database wallet owner wallet_owner;
create role wallet_runtime nologin;
create role wallet_app with login password :'app_password' in role wallet_runtime;
SQL
# Until the stanza exists archive-push fails and WAL waits in pg_wal (docs/operations.md,
# "Running the ha profile": run stanza-create by hand then).
pgbackrest --stanza=wallet stanza-create || echo 'pgbackrest stanza-create failed: run it on the leader by hand' >&2
