"""An OpenID provider for the tests, built on PyPI's pyop (SUNET's OpenID Connect provider library,
on pyoidc): this file is only the HTTP around it. It behaves as the providers Auth0 is not:

- its issuer has a path and no trailing slash (--issuer-path, e.g. /realms/demo);
- ID tokens carry only what identifies the login; name and email come from UserInfo alone;
- the client must authenticate the way it is registered (--auth-method);
- POST ISSUER/rotate replaces the signing key (a new kid), as a provider rotating its keys;
- POST ISSUER/misbehave with mode=NAME makes the next answers wrong in one way, as the OpenID
  Foundation's RP tests do (MISBEHAVIOURS below; mode=none for good answers again).

Every request is logged on stderr as "METHOD PATH STATUS", for the tests to read.
"""

import argparse
import base64
import html
import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from Cryptodome.Hash import SHA256
from Cryptodome.PublicKey import RSA
from Cryptodome.Signature import pkcs1_15
from jwkest.jwk import RSAKey
from oic.oic.message import EndSessionRequest
from pyop.authz_state import AuthorizationState
from pyop.exceptions import (
    BearerTokenError,
    InvalidAuthenticationRequest,
    InvalidClientAuthentication,
    OAuthError,
)
from pyop.provider import Provider
from pyop.subject_identifier import HashBasedSubjectIdentifierFactory
from pyop.userinfo import Userinfo


class People(dict):
    """Whoever signs in exists: `ada` is Ada, ada@example.org."""

    def __missing__(self, user_id):
        return {"name": user_id.capitalize(), "email": user_id + "@example.org", "email_verified": True}

    def __contains__(self, user_id):
        return True


# What each mode does to the ID token's header and claims (None: the token is left alone).
MISBEHAVIOURS = {
    "issuer-mismatch": lambda header, claims: claims.update(iss="https://impostor.example.com"),
    "aud": lambda header, claims: claims.update(aud="another-client"),
    "nonce-invalid": lambda header, claims: claims.update(nonce="not-the-one-sent"),
    "iat-missing": lambda header, claims: claims.pop("iat"),
    "sub-missing": lambda header, claims: claims.pop("sub"),
    "kid-absent-multiple": lambda header, claims: header.pop("kid", None),
    "bad-sig": None,
    "sig-none": None,
    "userinfo-bad-sub": None,
    "discovery-issuer": None,
    "refresh-refused": None,
    "refresh-invalid-request": None,
}


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def misbehaved(id_token, mode, key):
    """The ID token made wrong as `mode` says, signed again with `key` (or not at all)."""
    header_part, claims_part, signature = id_token.split(".")
    header, claims = json.loads(unb64(header_part)), json.loads(unb64(claims_part))
    if MISBEHAVIOURS.get(mode):
        MISBEHAVIOURS[mode](header, claims)
    if mode == "sig-none":
        header = {"alg": "none", "typ": "JWT"}
    signed = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
    if mode == "sig-none":
        return signed + "."
    signature = pkcs1_15.new(key.key).sign(SHA256.new(signed.encode()))
    if mode == "bad-sig":
        signature = bytes([signature[0] ^ 1]) + signature[1:]
    return signed + "." + b64(signature)


def signing_key(number):
    return RSAKey(key=RSA.generate(2048), use="sig", alg="RS256", kid="key-%d" % number)


def make_provider(options):
    # pyoidc accepts only an https issuer; the tests run on loopback over http (which the product
    # allows there alone), so the provider is made for https and its addresses then told as they are.
    issuer = "https://127.0.0.1:%d%s" % (options.port, options.issuer_path)
    configuration = {
        "issuer": issuer,
        "authorization_endpoint": issuer + "/authorize",
        "token_endpoint": issuer + "/token",
        "userinfo_endpoint": issuer + "/userinfo",
        "jwks_uri": issuer + "/jwks",
        "end_session_endpoint": issuer + "/logout",
        "scopes_supported": ["openid", "profile", "email", "offline_access"],
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "token_endpoint_auth_methods_supported": [options.auth_method],
        "code_challenge_methods_supported": ["S256"],
    }
    clients = {
        options.client_id: {
            "client_secret": options.client_secret,
            "redirect_uris": [options.redirect_uri],
            "post_logout_redirect_uris": [options.redirect_uri.rsplit("/", 1)[0] + "/logged-out"],
            "response_types": ["code"],
            "token_endpoint_auth_method": options.auth_method,
            "subject_type": "public",
        }
    }
    # A refresh token is rotated at every use (its threshold is its whole life), as Auth0 does.
    state = AuthorizationState(
        HashBasedSubjectIdentifierFactory("test-salt"), refresh_token_lifetime=3600, refresh_token_threshold=3600
    )
    provider = Provider(signing_key(1), configuration, state, clients, Userinfo(People()))
    for name, value in configuration.items():
        if isinstance(value, str) and value.startswith("https://"):
            provider.configuration_information[name] = "http://" + value[len("https://"):]
    return provider


def serve(options):
    provider = make_provider(options)
    base = options.issuer_path
    keys = {"made": 1}
    # The misbehaviour in force, and for kid-absent-multiple a second signing key published beside.
    state = {"mode": "none", "spare": signing_key(99)}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format, *args):
            pass  # one line per request, written by answer()

        def answer(self, status, body=b"", content_type="application/json", headers=()):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Cache-Control", "no-store")
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            sys.stderr.write("%s %s %d\n" % (self.command, urllib.parse.urlsplit(self.path).path, status))
            sys.stderr.flush()

        def redirect(self, location):
            self.answer(302, headers=[("Location", location)], content_type="text/plain")

        def json(self, status, document):
            self.answer(status, json.dumps(document).encode())

        def body(self):
            return self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()

        def route(self):
            url = urllib.parse.urlsplit(self.path)
            if not url.path.startswith(base + "/") and url.path != base:
                return None, url
            return url.path[len(base):], url

        def do_GET(self):
            path, url = self.route()
            if path == "/.well-known/openid-configuration":
                configuration = provider.provider_configuration
                if state["mode"] == "discovery-issuer":  # rp-discovery-issuer-not-matching-config
                    configuration["issuer"] += "/"
                self.answer(200, configuration.to_json().encode())
            elif path == "/jwks":
                jwks = provider.jwks
                if state["mode"] == "kid-absent-multiple":
                    jwks["keys"].append(state["spare"].serialize())
                self.json(200, jwks)
            elif path == "/authorize":
                try:
                    provider.parse_authentication_request(url.query)
                except InvalidAuthenticationRequest as error:
                    self.answer(400, str(error).encode(), "text/plain")
                    return
                form = (
                    '<form method="post" action="%s/authorize?%s"><input name="user"><button>Sign in</button></form>'
                    % (html.escape(base), html.escape(url.query))
                )
                self.answer(200, form.encode(), "text/html")
            elif path == "/userinfo":
                self.userinfo(url.query)
            elif path == "/logout":
                # pyop ends the session and sends the browser back only for a request carrying
                # the ID token it issued (id_token_hint) and a registered post_logout_redirect_uri.
                request = EndSessionRequest().from_urlencoded(url.query)
                back = None
                if "id_token_hint" in request:
                    provider.logout_user(end_session_request=request)
                    back = provider.do_post_logout_redirect(request)
                if back:
                    self.redirect(back)
                else:
                    self.answer(200, b"<p>Signed out.</p>", "text/html")
            else:
                self.answer(404, b"not found", "text/plain")

        def do_POST(self):
            path, url = self.route()
            body = self.body()
            if path == "/authorize":
                request = provider.parse_authentication_request(url.query)
                user = dict(urllib.parse.parse_qsl(body)).get("user", "")
                if not user:
                    self.answer(400, b"who?", "text/plain")
                    return
                response = provider.authorize(request, user)
                self.redirect(response.request(request["redirect_uri"]))
            elif path == "/token":
                if state["mode"] == "refresh-refused" and "grant_type=refresh_token" in body:
                    self.json(400, {"error": "invalid_grant", "error_description": "the session ended here"})
                    return
                # As a certified provider answers an unknown refresh token (review of issue 41).
                if state["mode"] == "refresh-invalid-request" and "grant_type=refresh_token" in body:
                    self.json(400, {"error": "invalid_request", "error_description": "refresh_token not found"})
                    return
                try:
                    response = provider.handle_token_request(body, {"Authorization": self.headers.get("Authorization")})
                    if state["mode"] != "none" and "id_token" in response:
                        response["id_token"] = misbehaved(response["id_token"], state["mode"], provider.signing_key)
                    self.answer(200, response.to_json().encode())
                except InvalidClientAuthentication as error:
                    self.json(401, {"error": "invalid_client", "error_description": str(error)})
                except OAuthError as error:
                    self.json(400, {"error": error.oauth_error, "error_description": str(error)})
            elif path == "/userinfo":
                self.userinfo(body)
            elif path == "/misbehave":
                mode = dict(urllib.parse.parse_qsl(body)).get("mode", "")
                if mode != "none" and mode not in MISBEHAVIOURS:
                    self.answer(400, b"unknown mode", "text/plain")
                    return
                state["mode"] = mode
                self.json(200, {"mode": mode})
            elif path == "/rotate":
                keys["made"] += 1
                provider.signing_key = signing_key(keys["made"])
                self.json(200, {"kid": provider.signing_key.kid})
            else:
                self.answer(404, b"not found", "text/plain")

        def userinfo(self, request):
            try:
                response = provider.handle_userinfo_request(request, {"Authorization": self.headers.get("Authorization")})
                if state["mode"] == "userinfo-bad-sub":
                    response["sub"] = "someone-else"
                self.answer(200, response.to_json().encode())
            except (BearerTokenError, OAuthError) as error:
                self.answer(401, b"", headers=[("WWW-Authenticate", 'Bearer error="invalid_token"')])

    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    sys.stderr.write("listening on %d\n" % options.port)
    sys.stderr.flush()
    server.serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--issuer-path", default="/realms/demo")
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--redirect-uri", required=True)
    parser.add_argument("--auth-method", default="client_secret_basic")
    serve(parser.parse_args())
