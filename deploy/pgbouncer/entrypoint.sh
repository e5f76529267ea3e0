#!/bin/sh
# Writes the runtime role's credentials where pgbouncer.ini's auth_file points (never into
# the image), then runs PgBouncer in the foreground.
set -eu
: "${APP_DB_PASSWORD:?set APP_DB_PASSWORD in .env}"
umask 077
printf '"wallet_app" "%s"\n' "$APP_DB_PASSWORD" > /tmp/userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
