#!/bin/sh
# The Patroni image's entrypoint, two jobs:
# - no argument (patroni1..3): refuses the placeholders of .env.example (and empty values),
#   then runs Patroni;
# - `etcd-auth` (the compose service etcd-auth, run before the nodes start): turns on etcd's
#   client authentication through its JSON gateway (curl: the etcd image has no shell), with a
#   `root` user (ETCD_ROOT_PASSWORD) and Patroni's user `patroni` (ETCD_PATRONI_PASSWORD), whose
#   role may read and write Patroni's namespace (/wallet/, patroni.yml) and nothing else. Without
#   it anyone who reaches etcd can rewrite Patroni's `config` key (pg_hba, archive_command): a
#   superuser and a shell on every node. Run again (every `up`), it logs in as root and sets
#   patroni's role and password to what .env says; a root password that no longer matches stops
#   it (change root's with `etcdctl user passwd root`). reliability/patroni-cluster.ts does the
#   same for the failover drill.
set -eu

refuse_placeholders() {
  for name in "$@"; do
    eval "value=\${$name:-}"
    case "$value" in
      '' | change-me*)
        echo "$name: set it in .env (openssl rand -hex 32); the .env.example placeholder is refused" >&2
        exit 1
        ;;
    esac
  done
}

# POST $1 to etcd's gateway with the JSON body $2, as the token $3 when given; prints the answer.
etcd_call() {
  if [ -n "${3:-}" ]; then
    curl -sS --max-time 10 -X POST "$ETCD_ENDPOINT/v3/$1" -H 'content-type: application/json' -H "Authorization: $3" -d "$2"
  else
    curl -sS --max-time 10 -X POST "$ETCD_ENDPOINT/v3/$1" -H 'content-type: application/json' -d "$2"
  fi
}

# One step of the set-up; an error answer stops the script unless it contains $3 (done already).
etcd_step() {
  answer=$(etcd_call "$1" "$2" "$token")
  case "$answer" in
    *'"error"'*)
      case "$answer" in
        *"${3:-no answer accepted}"*) ;;
        *)
          echo "etcd-auth: $1: $answer" >&2
          exit 1
          ;;
      esac
      ;;
  esac
}

etcd_auth() {
  for name in ETCD_ROOT_PASSWORD ETCD_PATRONI_PASSWORD; do
    eval "value=\${$name}"
    case "$value" in
      *[\"\\]*)
        echo "$name: no quotes or backslashes (openssl rand -hex 32)" >&2
        exit 1
        ;;
    esac
  done
  ETCD_ENDPOINT=${ETCD_ENDPOINT:-http://etcd:2379}
  # Patroni's namespace as an etcd key range: from "/wallet/" to "/wallet0" (its last byte + 1).
  key=$(printf %s /wallet/ | base64)
  range_end=$(printf %s /wallet0 | base64)
  token=''
  login=$(etcd_call auth/authenticate "{\"name\":\"root\",\"password\":\"$ETCD_ROOT_PASSWORD\"}")
  case "$login" in
    *'authentication is not enabled'*)
      enabled=false
      # (A run stopped half-way may have made root already: its password is set again.)
      etcd_step auth/user/add "{\"name\":\"root\",\"password\":\"$ETCD_ROOT_PASSWORD\"}" 'already exists'
      etcd_step auth/user/changepw "{\"name\":\"root\",\"password\":\"$ETCD_ROOT_PASSWORD\"}"
      ;;
    *'"token"'*)
      enabled=true
      token=$(printf %s "$login" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
      ;;
    *)
      echo "etcd-auth: cannot log in to etcd as root (ETCD_ROOT_PASSWORD): $login" >&2
      exit 1
      ;;
  esac
  etcd_step auth/role/add '{"name":"root"}' 'already exists'
  etcd_step auth/user/grant '{"user":"root","role":"root"}'
  etcd_step auth/role/add '{"name":"patroni"}' 'already exists'
  etcd_step auth/role/grant "{\"name\":\"patroni\",\"perm\":{\"permType\":\"READWRITE\",\"key\":\"$key\",\"range_end\":\"$range_end\"}}"
  etcd_step auth/user/add "{\"name\":\"patroni\",\"password\":\"$ETCD_PATRONI_PASSWORD\"}" 'already exists'
  etcd_step auth/user/changepw "{\"name\":\"patroni\",\"password\":\"$ETCD_PATRONI_PASSWORD\"}"
  etcd_step auth/user/grant '{"user":"patroni","role":"patroni"}'
  if [ "$enabled" = false ]; then etcd_step auth/enable '{}'; fi
  # Enforced: an anonymous read of Patroni's keys is refused.
  anonymous=$(etcd_call kv/range "{\"key\":\"$key\",\"range_end\":\"$range_end\"}")
  case "$anonymous" in
    *'user name is empty'* | *'permission denied'*) ;;
    *)
      echo "etcd-auth: etcd still answers without credentials: $anonymous" >&2
      exit 1
      ;;
  esac
  echo "etcd-auth: authentication on; user patroni may read and write /wallet/ only"
}

if [ "${1:-}" = etcd-auth ]; then
  refuse_placeholders ETCD_ROOT_PASSWORD ETCD_PATRONI_PASSWORD
  etcd_auth
  exit 0
fi
refuse_placeholders PATRONI_SUPERUSER_PASSWORD PATRONI_REPLICATION_PASSWORD PATRONI_RESTAPI_PASSWORD \
  PATRONI_ETCD3_PASSWORD POSTGRES_PASSWORD APP_DB_PASSWORD
exec patroni /etc/patroni/patroni.yml
