# Sourced by the run scripts: the settings that point the worker at the local dev tenant.
# RUN_DIR, APP_PORT and DEV_TENANT_PORT must be set; the repository root is $here.

export APP_BASE_URL="http://127.0.0.1:${APP_PORT}"
export AUTH0_DOMAIN="http://127.0.0.1:${DEV_TENANT_PORT}"
export AUTH0_CLIENT_ID="metadata-demo-dev"
export AUTH0_CLIENT_SECRET="dev-client-secret-not-for-production-0123456789"
# A cookie secret made once per run folder and kept, so a restart keeps people logged in.
if [ ! -s "$RUN_DIR/cookie-secret" ]; then
  (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$RUN_DIR/cookie-secret")
fi
export AUTH0_SECRET_FILE="$RUN_DIR/cookie-secret"
# The key that signs the identity assertions sibling apps verify (ES256), made once per run folder.
if [ ! -s "$RUN_DIR/assertion-key.pem" ]; then
  (umask 077 && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$RUN_DIR/assertion-key.pem")
fi
export IDENTITY_ASSERTION_KEY_FILE="$RUN_DIR/assertion-key.pem"
export TEMPLATES_DIR="$here/Templates"
# The embedded session ledger (SQLite), shared by every worker process of this run folder.
export STATE_DIR="$RUN_DIR/state"
# Run as root, nginx's workers are the web server's user: the sockets (mode 660) go to its group.
if [ "$(id -u)" = 0 ]; then
  source "$here/scripts/web-user.sh"
  export FASTCGI_SOCKET_GROUP="$WEB_GROUP"
  # Only nginx's workers (and root) may connect, not any other member of that group.
  export FASTCGI_PEER_USERS="$WEB_USER"
fi
export PUBLIC_DIR="$here/Public"

export DEV_TENANT_ISSUER="http://127.0.0.1:${DEV_TENANT_PORT}/"
export DEV_TENANT_CONFIG="$here/deploy/dev-tenant/tenant.json"
export DEV_TENANT_TEMPLATES_DIR="$here/Templates/dev-tenant"
export DEV_TENANT_STATE_FILE="$RUN_DIR/dev-tenant-state.json"
export DEV_TENANT_KEY_FILE="$RUN_DIR/dev-tenant-key.pem"

# print_demo_logins: the dev tenant's people, one a line.
print_demo_logins() {
  python3 - "$DEV_TENANT_CONFIG" <<'PY'
import json, sys
for user in json.load(open(sys.argv[1]))["users"]:
    print(f"email: {user['email']}  password: {user['password']}")
PY
}
