#!/usr/bin/env bash
# Starts the example cluster (examples/cluster/README.md): one `sluice serve` process per role,
# api, scheduler, executor and launcher, on PostgreSQL (DATABASE_URL, else the configurations'
# database.url; a missing database is created) and Redis. The api process starts first (it
# applies the migrations and creates the git repositories), the other three once it is up.
# Each process's output goes to data/cluster/<role>.log. Prints "cluster ready" when all four
# answer; Ctrl-C or SIGTERM stops them all. Exits 1 when a process fails to start or ends.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$root/data/cluster"
# PORT would move every process to one port; the configurations give each its own.
unset PORT
mkdir -p "$data/logs"

# The key that encrypts the projects' private keys in the database: every process shares it.
if [ ! -s "$data/key-encryption.key" ]; then
  (umask 077 && node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64url') + '\n')" \
    > "$data/key-encryption.key")
fi
# The compiled build starts each process faster (bin/sluice.js runs the sources without it).
node "$root/scripts/build-server.js" > /dev/null

pids=()
stop() {
  trap - EXIT INT TERM
  if [ "${#pids[@]}" -gt 0 ]; then
    kill -TERM "${pids[@]}" 2> /dev/null || true
    wait "${pids[@]}" 2> /dev/null || true
  fi
}
trap stop EXIT
trap 'stop; exit 0' INT TERM

start() {
  node "$root/bin/sluice.js" serve --config "$here/$1.yaml" > "$data/$1.log" 2>&1 &
  pids+=($!)
}

# Waits for the banner of each named role (its health address), or fails when its process ended.
await() {
  local role pid health
  for role in "$@"; do
    pid=${pids[$(role_index "$role")]}
    until health=$(grep -o 'http://[^ ]*/health/ready' "$data/$role.log" 2> /dev/null | head -n 1); do
      if ! kill -0 "$pid" 2> /dev/null; then
        echo "start.sh: the $role process ended; its output ($data/$role.log):" >&2
        cat "$data/$role.log" >&2
        exit 1
      fi
      sleep 0.2
    done
    echo "$role: $health (log: data/cluster/$role.log)"
  done
}

roles=(api scheduler executor launcher)
role_index() {
  local i
  for i in "${!roles[@]}"; do
    [ "${roles[$i]}" = "$1" ] && echo "$i" && return
  done
}

start api
await api
start scheduler
start executor
start launcher
await scheduler executor launcher
api=$(grep -o 'http://[^ ]*/health/ready' "$data/api.log" | head -n 1)
echo "cluster ready: the dashboard and API at ${api%/health/ready}/"

# Until a process ends (a failure) or a signal stops the cluster.
set +e
wait -n "${pids[@]}"
echo "start.sh: a process ended; stopping the cluster (logs in data/cluster/)" >&2
exit 1
