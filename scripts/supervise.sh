# Sourced by the run scripts: start programs under a restarting supervisor and stop them all.

supervised_pids=()

# supervise NAME COMMAND...: runs COMMAND in the background and starts it again whenever it
# exits (a crash or a SIGKILL), until the supervisor itself gets TERM or INT.
supervise() {
  local name=$1
  shift
  (
    child=""
    trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' TERM INT
    set +e  # the scripts run with errexit; a child's failure must not end its supervisor
    while true; do
      "$@" &
      child=$!
      wait "$child"
      status=$?
      echo "supervisor: $name exited with status $status; starting it again" >&2
      sleep 0.2
    done
  ) &
  supervised_pids+=("$!")
}

# supervise_worker NAME SOCKET COMMAND...: runs a FastCGI worker under scripts/fastcgi-supervisor,
# which holds its listening socket at SOCKET (so a crash or a reload refuses no connection),
# starts it again when it exits, and reloads it gracefully on SIGHUP. Exit status 2 (wrong
# settings) ends the supervisor too. The worker's log goes into a pipe that another process
# copies to this function's standard error (a terminal, a file), as the journal's stream takes
# it from the packaged worker: the worker pays for a pipe write, never for a terminal's line
# discipline or a slow reader's screen, so `make run`, `make bench` and the package measure alike.
supervise_worker() {
  local name=$1 socket=$2
  shift 2
  # The copier is the supervisor's sibling, not its child: the supervisor's only child is its worker.
  { python3 "$here/scripts/fastcgi-supervisor" --name "$name" --socket "$socket" -- "$@" & } 2> >(cat >&2)
  supervised_pids+=("$!")
}

# worker_socket N: worker N's socket in RUN_DIR (metadata-demo.sock, metadata-demo-2.sock, …), as
# scripts/nginx-conf lists them in the upstream.
worker_socket() {
  if [ "$1" = 1 ]; then echo "$RUN_DIR/metadata-demo.sock"; else echo "$RUN_DIR/metadata-demo-$1.sock"; fi
}

# stop_supervised: stops every supervised program and waits for them.
stop_supervised() {
  local pid
  for pid in "${supervised_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${supervised_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}

# wait_for_socket PATH SECONDS: waits until a unix socket exists.
wait_for_socket() {
  local path=$1 tries=$(( $2 * 20 ))
  while [ ! -S "$path" ] && [ "$tries" -gt 0 ]; do sleep 0.05; tries=$((tries - 1)); done
  [ -S "$path" ]
}

# port_answers PORT: true when something accepts a connection on 127.0.0.1:PORT.
port_answers() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# require_free_ports PORT...: stops with one line naming a port something already answers on
# (another `make run`, bench or soak would otherwise be served, or measured, instead).
require_free_ports() {
  local port
  for port in "$@"; do
    if port_answers "$port"; then
      echo "port $port is already in use on 127.0.0.1 (another make run, bench or soak?)" >&2
      return 1
    fi
  done
}
