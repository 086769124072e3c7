#!/usr/bin/env bash
# Back up and restore a Menagerie database with pg_dump / pg_restore, and prove it works:
#
#   1. create a scratch database, migrate it, serve it on 127.0.0.1;
#   2. register two players, start an Ark Nova game, play some moves, note the game as the
#      server shows it (seat 0's view, the log) and its state hash;
#   3. pg_dump -Fc the database (while the server is still running: pg_dump takes a consistent
#      snapshot), then pg_restore the dump into a second, new database;
#   4. serve the restored database and check: the game and its log are identical,
#      `menagerie replay` rebuilds the same state hash from the seed and the log, and the game
#      goes on (the next move is accepted).
#
#   bash scripts/backup-restore.sh [POSTGRES_URL]      (default: $TEST_POSTGRES_URL)
#
# The URL names any database on the server (postgresql+asyncpg://user:pass@host:port/db); the
# role must be allowed to create databases. Both scratch databases are dropped at the end.
# Exit status 0 when the restored game is intact. See docs/operations.md for the real backups.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${VENV:-.venv}/bin/python
URL=${1:-${TEST_POSTGRES_URL:-}}
if [ -z "$URL" ]; then
    echo "usage: $0 postgresql+asyncpg://user:pass@host:port/db   (or set TEST_POSTGRES_URL)" >&2
    exit 2
fi
MOVES=${MOVES:-25}

# libpq form of the address (pg_dump, pg_restore, psql), and a database name swapped in
libpq() { printf '%s' "${1/postgresql+asyncpg:/postgresql:}"; }
with_db() { printf '%s' "${1%/*}/$2"; }

TAG="$$_$(date +%s)"
SRC_DB="menagerie_backup_src_$TAG"
DST_DB="menagerie_backup_dst_$TAG"
SRC=$(with_db "$URL" "$SRC_DB")
DST=$(with_db "$URL" "$DST_DB")
ADMIN=$(libpq "$URL")
WORK=$(mktemp -d)
SERVER_PID=""

cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    psql -q "$ADMIN" -c "DROP DATABASE IF EXISTS \"$SRC_DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    psql -q "$ADMIN" -c "DROP DATABASE IF EXISTS \"$DST_DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

serve() {  # serve DATABASE_URL=$1 on a free port; sets PORT and SERVER_PID
    PORT=$(free_port)
    DATABASE_URL="$1" MENAGERIE_ARGON2_TIME_COST=1 MENAGERIE_ARGON2_MEMORY_KIB=1024 \
        MENAGERIE_LOG_LEVEL=WARNING MENAGERIE_ACCESS_LOG=false \
        "$PY" -m app.cli serve --host 127.0.0.1 --port "$PORT" >"$WORK/server-$PORT.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 150); do
        if curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then return 0; fi
        sleep 0.2
    done
    echo "server did not start:" >&2; tail -20 "$WORK/server-$PORT.log" >&2; exit 1
}
stop() { kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }

echo "== 1. scratch database $SRC_DB"
psql -q "$ADMIN" -c "CREATE DATABASE \"$SRC_DB\""
DATABASE_URL="$SRC" "$PY" -m app.cli migrate >/dev/null
serve "$SRC"

echo "== 2. a game with $MOVES moves"
"$PY" - "http://127.0.0.1:$PORT" "$MOVES" "$WORK" <<'PY'
import json, random, sys
import httpx
base, moves, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
c = httpx.Client(base_url=base, timeout=30)
tokens = []
for name in ("backup_ada", "backup_bob"):
    r = c.post("/api/auth/register", json={"username": name, "password": "backup-password"})
    r.raise_for_status()
    tokens.append(r.json()["token"])
c.cookies.clear()
auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
gid = c.post("/api/games", headers=auth[0], json={"game": "arknova", "seats": 2}).json()["id"]
c.post(f"/api/games/{gid}/join", headers=auth[1]).raise_for_status()
c.post(f"/api/games/{gid}/start", headers=auth[0]).raise_for_status()
rng = random.Random(7)
for _ in range(moves):
    g = c.get(f"/api/games/{gid}").json()
    if g["status"] != "running":
        break
    seat = g["waiting_for"][0]
    legal = c.get(f"/api/games/{gid}/legal", headers=auth[seat]).json()
    r = c.post(f"/api/games/{gid}/actions", headers=auth[seat],
               json={"version": legal["version"], "action": rng.choice(legal["actions"])})
    r.raise_for_status()
snapshot = {"gid": gid, "tokens": tokens,
            "game": c.get(f"/api/games/{gid}", headers=auth[0]).json(),
            "log": c.get(f"/api/games/{gid}/log?after=0", headers=auth[0]).json()}
json.dump(snapshot, open(f"{work}/before.json", "w"))
print(f"game {gid} at version {snapshot['game']['version']}")
PY
GID=$(jq .gid "$WORK/before.json")

echo "== 3. pg_dump (server still running), pg_restore into $DST_DB"
pg_dump --format=custom --no-owner --file="$WORK/menagerie.dump" "$(libpq "$SRC")"
ls -l "$WORK/menagerie.dump" | awk '{print "   dump: " $5 " bytes"}'
stop
psql -q "$ADMIN" -c "CREATE DATABASE \"$DST_DB\""
pg_restore --no-owner --exit-on-error --dbname="$(libpq "$DST")" "$WORK/menagerie.dump"

echo "== 4. the restored game"
DATABASE_URL="$DST" "$PY" -m app.cli replay "$GID"
DATABASE_URL="$DST" "$PY" -m app.cli migrate >/dev/null  # already at head: a no-op
serve "$DST"
"$PY" - "http://127.0.0.1:$PORT" "$WORK" <<'PY'
import json, sys
import httpx
base, work = sys.argv[1], sys.argv[2]
before = json.load(open(f"{work}/before.json"))
gid, tokens = before["gid"], before["tokens"]
auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
c = httpx.Client(base_url=base, timeout=30)
game = c.get(f"/api/games/{gid}", headers=auth[0]).json()
log = c.get(f"/api/games/{gid}/log?after=0", headers=auth[0]).json()
assert game == before["game"], "the restored game differs"
assert log == before["log"], "the restored log differs"
seat = game["waiting_for"][0]
legal = c.get(f"/api/games/{gid}/legal", headers=auth[seat]).json()
r = c.post(f"/api/games/{gid}/actions", headers=auth[seat],
           json={"version": legal["version"], "action": legal["actions"][0]})
assert r.status_code == 200, r.text
print(f"game {gid}: view and log identical after restore ({len(log['entries'])} moves); "
      f"logins still valid; the next move is accepted (version {r.json()['version']})")
PY
stop
echo "backup and restore: OK"
