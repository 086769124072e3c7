#!/usr/bin/env bash
# Start the local PostgreSQL server and create the test role and database (idempotent).
#
#   role menagerie / password menagerie, database menagerie_test, on 127.0.0.1:5432
#
# Run as root (it uses `service` and `runuser -u postgres`). Installs PostgreSQL with apt-get
# when it is missing. Prints the TEST_POSTGRES_URL to use.
set -euo pipefail

PGUSER_NAME=${MENAGERIE_PG_USER:-menagerie}
PGPASS=${MENAGERIE_PG_PASSWORD:-menagerie}
PGDB=${MENAGERIE_PG_DB:-menagerie_test}
PGPORT=${MENAGERIE_PG_PORT:-5432}

if [ "$(id -u)" != "0" ]; then
    echo "setup-postgres.sh: run as root (or point TEST_POSTGRES_URL at a server yourself)" >&2
    exit 1
fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    echo "setup-postgres.sh: installing PostgreSQL" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y postgresql >/dev/null || { apt-get update >/dev/null && apt-get install -y postgresql >/dev/null; }
fi

service postgresql start >/dev/null

for _ in $(seq 1 60); do
    if runuser -u postgres -- pg_isready -h 127.0.0.1 -p "$PGPORT" -q; then
        break
    fi
    sleep 0.5
done
runuser -u postgres -- pg_isready -h 127.0.0.1 -p "$PGPORT" >/dev/null || {
    echo "setup-postgres.sh: PostgreSQL did not come up on 127.0.0.1:$PGPORT" >&2
    exit 1
}

psql_admin() {
    # over 127.0.0.1 when the server trusts it, else over the local socket (peer auth)
    runuser -u postgres -- psql -w -h 127.0.0.1 -p "$PGPORT" -v ON_ERROR_STOP=1 -qAt "$@" 2>/dev/null \
        || runuser -u postgres -- psql -w -p "$PGPORT" -v ON_ERROR_STOP=1 -qAt "$@"
}

if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$PGUSER_NAME'")" != "1" ]; then
    psql_admin -c "CREATE ROLE \"$PGUSER_NAME\" LOGIN PASSWORD '$PGPASS'"
fi
# the test suite creates (and drops) a throwaway database per run
psql_admin -c "ALTER ROLE \"$PGUSER_NAME\" LOGIN CREATEDB PASSWORD '$PGPASS'"
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$PGDB'")" != "1" ]; then
    psql_admin -c "CREATE DATABASE \"$PGDB\" OWNER \"$PGUSER_NAME\""
fi

# the tests connect over TCP with the password: check that this works
PGPASSWORD="$PGPASS" runuser -u postgres -- env PGPASSWORD="$PGPASS" \
    psql -w -h 127.0.0.1 -p "$PGPORT" -U "$PGUSER_NAME" -d "$PGDB" -qAt -c "SELECT 1" >/dev/null || {
    echo "setup-postgres.sh: $PGUSER_NAME cannot log in over 127.0.0.1:$PGPORT (check pg_hba.conf)" >&2
    exit 1
}

echo "postgresql+asyncpg://$PGUSER_NAME:$PGPASS@127.0.0.1:$PGPORT/$PGDB"
