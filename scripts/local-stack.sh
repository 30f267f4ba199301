# Sourced by `make bench` and `make soak`: starts the release build of the dev tenant, the worker
# and nginx (with the ceiling server) in a temporary run folder, supervised, and logs in a person.
# Sets: bin, app, RUN_DIR, worker_pid(), worker_supervisors, tenant_supervisor, cookie (what a
# browser sends to a page), save_cookie (what it sends to /affirmation: the session and its access
# token), csrf. WORKER_LOG_LEVEL is the worker's LOG_LEVEL (default warning). WORKER_WRAPPER (words
# put before the worker's command, e.g. valgrind's), WORKER_BINARY (another build of the worker)
# and WORKER_START_SECONDS (how long it may take to answer, default 35) serve the profilers.

for product in metadata-demo dev-tenant session-bench; do
  swift build -c release --static-swift-stdlib --product "$product" >/dev/null
done
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
export RUN_DIR=$(mktemp -d /tmp/metadata-demo-stack.XXXXXX)
export APP_PORT=${BENCH_APP_PORT:-18080} DEV_TENANT_PORT=${BENCH_TENANT_PORT:-18081} CEILING_PORT=${BENCH_CEILING_PORT:-18082}
# Another stack on these ports would be measured instead of this one (BENCH_*_PORT move it).
require_free_ports "$APP_PORT" "$DEV_TENANT_PORT" "$CEILING_PORT" ${FLOOR_PORT:+"$FLOOR_PORT"} ${LIMIT_PORT:+"$LIMIT_PORT"} \
  ${LIMIT_PAGE_PORT:+"$LIMIT_PAGE_PORT"} \
  ${PLAIN_PORT:+"$PLAIN_PORT"} ${CHECKS_PORT:+"$CHECKS_PORT"} || { rm -rf "$RUN_DIR"; exit 1; }
source scripts/dev-env.sh
# The example mini apps, as make run has them (their programs are not started: nothing here asks them).
export MINI_APPS_FILE=${MINI_APPS_FILE-$here/deploy/mini-apps/mini-apps.json}
scripts/nginx-conf >"$RUN_DIR/nginx.conf"
trap 'stop_supervised; rm -rf "$RUN_DIR"' EXIT

# The benchmarks save many times a minute: the tenant's per-user rate limit is lifted.
supervise dev-tenant env FASTCGI_LISTEN="unix:$RUN_DIR/dev-tenant.sock" LOG_LEVEL=warning \
  DEV_TENANT_USER_RATE_PER_MINUTE=100000000 "$bin/dev-tenant"
tenant_supervisor=${supervised_pids[-1]}
# nginx before the worker: the worker reads the tenant's discovery document through it at start-up.
supervise nginx nginx -p "$RUN_DIR" -c "$RUN_DIR/nginx.conf" -g "daemon off;"
# WORKER_PROCESSES (default 1) workers, each under a supervisor holding its socket, started as
# `make run` starts them (supervise_worker). A worker's log (a line per request at LOG_LEVEL=info)
# goes, as make run's and the package's do, into a pipe another process empties: here into
# RUN_DIR/worker-N.log rather than a terminal, whose drawing would share the cores measured.
worker_supervisors=()
for ((n = 1; n <= ${WORKER_PROCESSES:-1}; n++)); do
  WORKER_THREADS=${WORKER_THREADS:-32} LOG_LEVEL=${WORKER_LOG_LEVEL:-warning} supervise_worker "worker-$n" "$(worker_socket "$n")" \
    ${WORKER_WRAPPER:-} "${WORKER_BINARY:-$bin/metadata-demo}" 2>>"$RUN_DIR/worker-$n.log"
  worker_supervisors+=("${supervised_pids[-1]}")
done
wait_for_socket "$RUN_DIR/dev-tenant.sock" 15
wait_for_socket "$RUN_DIR/metadata-demo.sock" "${WORKER_START_SECONDS:-35}" || { tail -20 "$RUN_DIR/worker-1.log" >&2; exit 1; }
for _ in $(seq $((${WORKER_START_SECONDS:-35} * 10))); do
  curl -fs -m 30 "http://127.0.0.1:$APP_PORT/healthz" >/dev/null && break
  sleep 0.1
done

app="http://127.0.0.1:$APP_PORT"
# worker_pid [N]: the pid of worker N (default 1).
worker_pid() { pgrep -n -P "${worker_supervisors[${1:-1} - 1]}"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$(worker_pid)/status"; }
{ read -r cookie; read -r save_cookie; } < <(
  python3 scripts/demo_login.py cookie "$app" skippy@example.com 'Skippy-the-kangaroo-1!' / /affirmation)
csrf=$(curl -s -H "Cookie: $cookie" "$app/" | grep -o 'name="csrf" value="[^"]*"' | head -1 | sed 's/.*value="//;s/"$//')

# restart_tenant VAR=value…: replaces the supervised dev tenant with one with other settings.
restart_tenant() {
  kill -TERM "$tenant_supervisor" 2>/dev/null || true
  wait "$tenant_supervisor" 2>/dev/null || true
  supervise dev-tenant env FASTCGI_LISTEN="unix:$RUN_DIR/dev-tenant.sock" LOG_LEVEL=warning \
    DEV_TENANT_USER_RATE_PER_MINUTE=100000000 "$@" "$bin/dev-tenant"
  tenant_supervisor=${supervised_pids[-1]}
  sleep 0.5
}
