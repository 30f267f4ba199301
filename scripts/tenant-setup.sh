# Sourced by scripts/run for `TENANT_SETUP=apply make run`: the dev tenant starts bare, as a new
# Auth0 tenant is (a management application and the demo people, no application, API, Action or
# MFA factor), and `metadata-demo auth0 apply` sets it up for this site before the workers start.

# The bare tenant file, from `make run`'s people; DEV_TENANT_CONFIG then names it.
write_bare_tenant() {
  local bare=$1
  export TENANT_ADMIN_ID=tenant-admin
  export TENANT_ADMIN_SECRET=tenant-admin-secret-not-for-production-0123456789
  python3 - "$DEV_TENANT_CONFIG" "$bare" <<'PY'
import json, os, sys
document = json.load(open(sys.argv[1]))
scopes = ("read:clients create:clients update:clients read:client_credentials create:client_credentials "
          "read:resource_servers create:resource_servers update:resource_servers read:client_grants "
          "create:client_grants update:client_grants read:connections update:connections read:actions "
          "create:actions update:actions read:guardian_factors update:guardian_factors "
          "read:tenant_settings update:tenant_settings delete:sessions").split()
bare = {"_comment": "A bare tenant for TENANT_SETUP=apply make run: `metadata-demo auth0 apply` sets it up.",
        "clients": [{"name": "tenant admin", "client_id": os.environ["TENANT_ADMIN_ID"],
                     "client_secret": os.environ["TENANT_ADMIN_SECRET"], "app_type": "non_interactive",
                     "grant_types": ["client_credentials"], "management_api_scopes": scopes}],
        "users": document["users"]}
with open(sys.argv[2], "w") as out:
    json.dump(bare, out, indent=2)
PY
  export DEV_TENANT_CONFIG=$bare
}

# The site's settings file as the guide's layout has it, set up by `auth0 apply`; its client id
# and secret then exported for the workers.
setup_tenant() {
  local bin=$1 site=$RUN_DIR/site.env
  {
    echo "AUTH0_DOMAIN=$AUTH0_DOMAIN"
    echo "APP_BASE_URL=$APP_BASE_URL"
    echo "AUTH0_SECRET_FILE=$AUTH0_SECRET_FILE"
    echo "TEMPLATES_DIR=$TEMPLATES_DIR"
    echo "MINI_APPS_FILE=$MINI_APPS_FILE"
    echo "AUTH0_MANAGEMENT_CLIENT_ID=$TENANT_ADMIN_ID"
    echo "AUTH0_MANAGEMENT_CLIENT_SECRET=$TENANT_ADMIN_SECRET"
  } >"$site"
  env -u AUTH0_CLIENT_ID -u AUTH0_CLIENT_SECRET "$bin/metadata-demo" --env-file "$site" auth0 apply || return 1
  AUTH0_CLIENT_ID=$(sed -n 's/^AUTH0_CLIENT_ID=//p' "$site")
  [ -s "$RUN_DIR/client-secret" ] || { echo "no client secret in $RUN_DIR/client-secret" >&2; return 1; }
  AUTH0_CLIENT_SECRET=$(cat "$RUN_DIR/client-secret")
  export AUTH0_CLIENT_ID AUTH0_CLIENT_SECRET
}
