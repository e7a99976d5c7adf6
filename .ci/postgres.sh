#!/usr/bin/env bash
# Install (if needed) and start a local PostgreSQL for the server tests; print its URL.
set -euo pipefail
if ! command -v pg_lsclusters > /dev/null 2>&1; then
  apt-get update -qq > /dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql > /dev/null
fi
version=$(pg_lsclusters -h | awk 'NR==1 {print $1}')
if [ -z "$version" ]; then
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  pg_createcluster "$version" main > /dev/null 2>&1
fi
pg_ctlcluster "$version" main start > /dev/null 2>&1 || true
for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 0.2
done
su postgres -c "psql -q -c \"DO \\\$\\\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mummy') THEN CREATE ROLE mummy LOGIN SUPERUSER PASSWORD 'mummy'; END IF; END \\\$\\\$;\"" > /dev/null
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_database WHERE datname = 'mummy_test'\" | grep -q 1 || createdb -O mummy mummy_test"
echo "postgresql+psycopg://mummy:mummy@127.0.0.1:5432/mummy_test"
