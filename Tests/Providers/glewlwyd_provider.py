"""Debian's Glewlwyd (2.7), an OpenID Connect provider nobody here wrote, started and configured
for the tests as its own documentation says (API.md, OIDC.md in /usr/share/doc/glewlwyd): a
SQLite database made with the package's own schema (its administrator `admin`, password
`password`), the server on a port of its own, then through its administration API an OpenID
Connect plugin instance, a client and a person. This file only runs Glewlwyd and sends it those
requests; every protocol check is Glewlwyd's.

  python glewlwyd_provider.py --port N --dir DIR --redirect-uri URL --logged-out-uri URL
         [--backchannel-logout-uri URL] [--frontchannel-logout-uri URL [--host NAME]]
         [--client-id ID] [--client-secret S] [--client-key PEM-FILE] [--par] [--dpop [--dpop-nonce]]
         [--alg RS256]

With --frontchannel-logout-uri, Glewlwyd also serves its own web pages (the package's webapp,
whose end-session page loads each client's front-channel logout address in an iframe) under
http://HOST:PORT/ (HOST 127.0.0.1 unless --host says).

Prints "ready ISSUER" on stdout when configured, then serves until stopped (SIGTERM).
"""
import argparse
import http.cookiejar
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request

SCHEMA = "/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3"
WEBAPP = "/usr/share/glewlwyd/webapp"
PACKAGE_CONFIG = "/etc/glewlwyd/glewlwyd.conf"
PERSON = {"username": "ada", "password": "Ada-pass-1!", "name": "Ada Lovelace", "email": "ada@example.org"}


def webapp(directory):
    """The package's web pages as Glewlwyd serves them: its folder, but for config.json, which
    the package ships as a folder holding the file."""
    folder = f"{directory}/webapp"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(WEBAPP, folder, ignore=shutil.ignore_patterns("config.json"))
    shutil.copy(f"{WEBAPP}/config.json/config.json", f"{folder}/config.json")
    return folder


def config(port, directory, level, host, pages=None):
    """The package's own configuration file with this run's port, address, log and database, and
    its web pages when given."""
    lines = [f'static_files_path="{pages}"\n'] if pages else []
    for line in open(PACKAGE_CONFIG):
        stripped = line.strip()
        if stripped.startswith("#") or not stripped:
            continue
        key = stripped.split("=")[0].strip()
        if key == "port":
            line = f"port={port}\n"
        elif key == "external_url":
            line = f'external_url="http://{host}:{port}"\n'
        elif key == "log_mode":
            line = 'log_mode="console"\n'
        elif key == "log_level":
            line = f'log_level="{level}"\n'
        elif stripped.startswith("@include"):
            line = f'database = {{ type = "sqlite3"\n  path = "{directory}/glewlwyd.db" }};\n'
        lines.append(line)
    path = f"{directory}/glewlwyd.conf"
    with open(path, "w") as out:
        out.writelines(lines)
    return path


def database(directory):
    path = f"{directory}/glewlwyd.db"
    if os.path.exists(path):
        os.unlink(path)
    with sqlite3.connect(path) as db:
        db.executescript(open(SCHEMA).read())


class Admin:
    """A session of Glewlwyd's administrator on its API."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def send(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()
        except OSError as error:  # not listening yet
            return 0, str(error)

    def must(self, method, path, body=None):
        status, text = self.send(method, path, body)
        if status != 200:
            raise SystemExit(f"glewlwyd: {method} {path} answered {status}: {text}")
        return text


def signing_key(directory, alg):
    """A new key for the provider's signatures, of the kind `alg` names (openssl)."""
    key = f"{directory}/signing-key.pem"
    curves = {"ES256": "P-256", "ES384": "P-384", "ES512": "P-521"}
    if alg in curves:
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", f"ec_paramgen_curve:{curves[alg]}",
                        "-out", key], check=True, capture_output=True)
    elif alg == "EdDSA":
        subprocess.run(["openssl", "genpkey", "-algorithm", "ED25519", "-out", key], check=True, capture_output=True)
    else:
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
                       check=True, capture_output=True)
    public = subprocess.run(["openssl", "pkey", "-in", key, "-pubout"], check=True, capture_output=True, text=True)
    return open(key).read(), public.stdout


def plugin(issuer, alg, private, public, args):
    """The OpenID Connect plugin instance's parameters (OIDC.md's settings, by their API names)."""
    kind = {"RS": "rsa", "PS": "rsa-pss", "ES": "ecdsa", "Ed": "eddsa"}[alg[:2]]
    size = "256" if alg == "EdDSA" else alg[2:]
    return {
        "module": "oidc", "name": "oidc", "display_name": "OpenID Connect",
        "parameters": {
            "iss": issuer, "jwt-type": kind, "jwt-key-size": size, "key": private, "cert": public,
            "jwks-show": True, "access-token-duration": 3600, "refresh-token-duration": 1209600,
            "code-duration": 600, "refresh-token-rolling": True, "allow-non-oidc": False,
            "auth-type-code-enabled": True, "auth-type-refresh-enabled": True, "auth-type-token-enabled": False,
            "auth-type-id-token-enabled": False, "auth-type-none-enabled": False, "auth-type-password-enabled": False,
            "auth-type-client-enabled": False, "auth-type-device-enabled": False,
            "allowed-scope": ["openid", "email", "profile", "offline_access"], "scope": [],
            "name-claim": "mandatory", "email-claim": "mandatory", "scope-claim": "no",
            "pkce-allowed": True, "pkce-method-plain-allowed": False,
            "session-management-allowed": True, "back-channel-logout-allowed": True,
            "front-channel-logout-allowed": bool(args.frontchannel_logout_uri),
            "session-cookie-name": "GLEWLWYD2_OIDC_SID",
            "session-cookie-expiration": 2419200, "client-pubkey-parameter": "pubkey",
            "client-jwks-parameter": "jwks", "client-jwks_uri-parameter": "jwks_uri",
            "request-parameter-allow": True, "request-maximum-exp": 3600,
            "oauth-par-allowed": args.par, "oauth-par-required": False, "oauth-par-duration": 90,
            "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:",
            "oauth-dpop-allowed": args.dpop, "oauth-dpop-iat-duration": 60,
            "oauth-dpop-nonce-mandatory": args.dpop_nonce, "oauth-dpop-nonce-counter": 10,
            "introspection-revocation-allowed": True, "introspection-revocation-allow-target-client": True,
            "introspection-revocation-auth-scope": [],
        },
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--redirect-uri", required=True)
    parser.add_argument("--logged-out-uri", required=True)
    parser.add_argument("--backchannel-logout-uri")
    parser.add_argument("--frontchannel-logout-uri")
    parser.add_argument("--host", default="127.0.0.1", help="the name in its addresses (and its issuer)")
    parser.add_argument("--client-id", default="metadata-demo")
    parser.add_argument("--client-secret", default="glewlwyd-client-secret-0123456789")
    parser.add_argument("--client-key", help="a PEM public key: the client authenticates with private_key_jwt")
    parser.add_argument("--par", action="store_true")
    parser.add_argument("--dpop", action="store_true")
    parser.add_argument("--dpop-nonce", action="store_true", help="proofs must carry its nonce")
    parser.add_argument("--log-level", default="INFO", help="DEBUG says why it refuses a proof")
    parser.add_argument("--alg", default="RS256")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    database(args.dir)
    pages = webapp(args.dir) if args.frontchannel_logout_uri else None
    server = subprocess.Popen(
        ["/usr/bin/glewlwyd", "-c", config(args.port, args.dir, args.log_level, args.host, pages)])

    # Glewlwyd takes seconds to stop by a signal, and its database is this test's alone: it is
    # killed. Only that here: the main thread's wait() returns once it has gone (waiting in the
    # handler too would wait on the lock wait() holds).
    signal.signal(signal.SIGTERM, lambda *_: server.kill())
    base = f"http://{args.host}:{args.port}/api"
    admin = Admin(base)
    for _ in range(100):
        status, _text = admin.send("POST", "/auth/", {"username": "admin", "password": "password"})
        if status == 200:
            break
        time.sleep(0.1)
    else:
        raise SystemExit("glewlwyd: the administrator could not log in")
    issuer = base + "/oidc"
    private, public = signing_key(args.dir, args.alg)
    admin.must("POST", "/mod/plugin/", plugin(issuer, args.alg, private, public, args))
    client = {
        "client_id": args.client_id, "name": "Metadata demo", "enabled": True, "confidential": True,
        "redirect_uri": [args.redirect_uri], "post_logout_redirect_uris": args.logged_out_uri,
        "authorization_type": ["code", "refresh_token"], "scope": ["openid", "email", "profile", "offline_access"],
    }
    if args.backchannel_logout_uri:
        client["backchannel_logout_uri"] = args.backchannel_logout_uri
        client["backchannel_logout_session_required"] = "true"
    if args.frontchannel_logout_uri:
        client["frontchannel_logout_uri"] = args.frontchannel_logout_uri
        client["frontchannel_logout_session_required"] = "true"
    if args.client_key:
        client["token_endpoint_auth_method"] = ["private_key_jwt"]
        client["pubkey"] = open(args.client_key).read()
    else:
        client["token_endpoint_auth_method"] = ["client_secret_basic"]
        client["client_secret"] = args.client_secret
    admin.must("POST", "/client/", client)
    for scope in ["email", "profile", "offline_access"]:
        admin.send("POST", "/scope/", {"name": scope, "display_name": scope, "password_required": False})
    admin.must("POST", "/user/", dict(PERSON, scope=["openid", "email", "profile", "offline_access", "g_profile"]))
    print("ready " + issuer, flush=True)
    server.wait()


if __name__ == "__main__":
    main()
