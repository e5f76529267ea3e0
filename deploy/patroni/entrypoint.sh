#!/bin/sh
# Refuses the placeholders of .env.example (and empty values), then runs Patroni.
set -eu
for name in PATRONI_SUPERUSER_PASSWORD PATRONI_REPLICATION_PASSWORD PATRONI_RESTAPI_PASSWORD POSTGRES_PASSWORD; do
  eval "value=\${$name:-}"
  case "$value" in
    '' | change-me*)
      echo "$name: set it in .env (openssl rand -hex 32); the .env.example placeholder is refused" >&2
      exit 1
      ;;
  esac
done
exec patroni /etc/patroni/patroni.yml
