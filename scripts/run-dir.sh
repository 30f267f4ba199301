# Sourced by scripts/run: claim_run_dir DIR makes or checks the run folder before anything is
# written there. make run writes nginx's configuration and reads the cookie secret from it, and
# as root starts nginx on what it finds: a folder another user owns or may write to, or a
# symlink in it, would let that user choose the configuration or the secret (and so forge any
# session). Such a folder is refused with one line per problem.
claim_run_dir() {
  local dir=$1 me problems=()
  me=$(id -u)
  if [ ! -e "$dir" ] && [ ! -L "$dir" ]; then
    mkdir -p "$(dirname "$dir")"
    mkdir -m 755 "$dir"
  fi
  if [ -L "$dir" ]; then
    problems+=("RUN_DIR $dir is a symbolic link")
  elif [ ! -d "$dir" ]; then
    problems+=("RUN_DIR $dir is not a folder")
  else
    local owner mode parent
    owner=$(stat -c %u "$dir")
    mode=$(stat -c %a "$dir")
    [ "$owner" = "$me" ] || problems+=("RUN_DIR $dir belongs to user $(stat -c %U "$dir"), not to you")
    (( (8#$mode & 8#022) == 0 )) || problems+=("RUN_DIR $dir may be written by other users (mode $mode)")
    parent=$(dirname "$(readlink -f "$dir")")
    mode=$(stat -c %a "$parent")
    # A folder others may write to without the sticky bit (as /tmp has) lets them replace RUN_DIR.
    if (( (8#$mode & 8#022) != 0 && (8#$mode & 8#1000) == 0 )); then
      problems+=("RUN_DIR's parent $parent may be written by other users (mode $mode)")
    fi
    local entry
    while IFS= read -r -d '' entry; do
      problems+=("RUN_DIR holds a symbolic link, $(basename "$entry"): make run never writes or reads through one")
    done < <(find "$dir" -maxdepth 1 -type l -print0)
    if [ -e "$dir/cookie-secret" ] && [ "$(stat -c %u "$dir/cookie-secret")" != "$me" ]; then
      problems+=("RUN_DIR's cookie-secret belongs to user $(stat -c %U "$dir/cookie-secret"), not to you")
    fi
  fi
  [ ${#problems[@]} -eq 0 ] && return 0
  printf '%s\n' "${problems[@]}" >&2
  echo "Use a folder of your own, e.g. RUN_DIR=\$(mktemp -d) make run" >&2
  return 1
}

# write_run_file PATH: writes standard input to PATH by renaming a new file over it, so a link
# put there is replaced, never followed.
write_run_file() {
  local tmp
  tmp=$(mktemp "$1.XXXXXX")
  cat >"$tmp"
  chmod 644 "$tmp"
  mv -f "$tmp" "$1"
}

# clear_stale_sockets DIR: removes the unix sockets in DIR that nothing listens on any more (left
# by a make run that was killed, crashed or lost its terminal: nginx cannot bind over them).
# One that something still listens on stops make run with a line: another make run holds it.
clear_stale_sockets() {
  local socket busy=()
  for socket in "$1"/*.sock; do
    [ -S "$socket" ] || continue
    if python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.settimeout(1); s.connect(sys.argv[1])' "$socket" 2>/dev/null; then
      busy+=("$socket")
    else
      rm -f "$socket"
    fi
  done
  [ ${#busy[@]} -eq 0 ] && return 0
  printf 'RUN_DIR holds %s, which a running program still serves: another make run uses this folder\n' "${busy[@]}" >&2
  return 1
}

# wait_for_nginx PORT SECONDS: waits until nginx answers on PORT (port_answers, from
# supervise.sh); if it does not, prints what nginx said (its error log's last lines) and fails.
wait_for_nginx() {
  local port=$1 tries=$(( $2 * 10 ))
  while [ "$tries" -gt 0 ]; do
    port_answers "$port" && return 0
    sleep 0.1
    tries=$((tries - 1))
  done
  echo "nginx did not start; it said:" >&2
  tail -n 3 "$RUN_DIR/nginx-error.log" >&2 2>/dev/null || true
  return 1
}
