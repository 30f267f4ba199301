#!/usr/bin/python3
"""The example API of a mini app: it answers only a request whose bearer token is an access token
the provider issued for this API, verified as a real API verifies one (PyJWT, Debian's
python3-jwt): the RS256 signature against the provider's published keys (fetched again on an
unknown kid, at most once per 30 s), the issuer, the audience (this API's identifier, so a token
made for another app's API is refused), the expiry, and the scope it needs among the token's
scope and, when the token lists them (Auth0's RBAC), its permissions.

  mini_api.py --listen unix:/path/api.sock|HOST:PORT --issuer https://TENANT/ --audience API_ID
              --scope read:things [--jwks URL] [--name TEXT] [--step-up mfa --claims NAMESPACE]

Answers (RFC 6750): 200 with {"api", "sub", "scope", "permissions"} and what the scope it needs
names: for read:announcements, "announcements" (each with a date, a title and a text in English
and Chinese); for any other, "account" (the id the token speaks for, whether the person signed in
with a second factor when --claims says where that is, and until when the token lasts); 401 with
WWW-Authenticate: Bearer error="invalid_token" for a missing or refused token; 403 with
error="insufficient_scope" for a token without the scope. With --step-up mfa it also asks for a
second factor as RFC 9470 has it: a token whose NAMESPACE + "amr" claim (added by the provider's
post-login Action; Auth0 says `amr` in ID tokens only) lacks "mfa" gets 401 with
error="insufficient_user_authentication" and acr_values naming Auth0's multi-factor policy, which
the app in front sends back to the product's login.
"""
import argparse
import http.server
import json
import os
import socket
import sys

import jwt

# Its neighbour is imported from where the package put it (/usr/share): no bytecode goes there.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_app import Keys, serve  # noqa: E402 (beside this file)

socket.setdefaulttimeout(5)  # the key fetch has no timeout of its own


# What the example Announcements API serves.
ANNOUNCEMENTS = [
    {"date": "2026-11-24",
     "title": {"en": "Log out everywhere else", "zh": "在其他所有地方退出登录"},
     "text": {"en": "“Your sessions” lists where you are logged in and ends the others with one button.",
              "zh": "「你的会话」列出你登录的地方，一个按钮即可结束其他会话。"}},
    {"date": "2026-11-20",
     "title": {"en": "Your affirmation follows you", "zh": "你的肯定语随你而行"},
     "text": {"en": "Your affirmation is kept in your profile, so every device you log in on shows it.",
              "zh": "你的肯定语保存在你的资料中，你登录的每台设备都会显示它。"}},
]


class APIHandler(http.server.BaseHTTPRequestHandler):
    server_version = "mini-api"
    sys_version = ""

    def do_GET(self):
        header = self.headers.get("Authorization", "")
        if not header.lower().startswith("bearer ") or not header[7:].strip():
            return self.refuse(401, "invalid_token", "no bearer token")
        token = header[7:].strip()
        try:
            key = self.server.keys.key_for(token)
            claims = jwt.decode(token, key, algorithms=["RS256"], audience=self.server.audience,
                                issuer=self.server.issuer, leeway=5,
                                options={"require": ["iss", "aud", "sub", "iat", "exp"]})
        except (jwt.PyJWTError, OSError) as error:
            return self.refuse(401, "invalid_token", str(error))
        if self.server.step_up == "mfa" and "mfa" not in (claims.get(self.server.claims + "amr") or []):
            return self.challenge()
        scopes = claims.get("scope", "").split()
        permissions = claims.get("permissions")
        if self.server.scope not in scopes or (permissions is not None and self.server.scope not in permissions):
            return self.refuse(403, "insufficient_scope", f"{self.server.scope} is needed")
        document = {"api": self.server.name, "sub": claims["sub"], "scope": claims.get("scope", ""),
                    "permissions": permissions or []}
        if self.server.scope == "read:announcements":
            document["announcements"] = ANNOUNCEMENTS
        else:
            amr = claims.get(self.server.claims + "amr") if self.server.claims else None
            document["account"] = {"id": claims["sub"], "expires": claims["exp"],
                                   "second_factor": None if amr is None else "mfa" in amr}
        self.answer(200, document)

    def refuse(self, status, error, description):
        challenge = f'Bearer error="{error}", error_description="{description.replace(chr(34), chr(39))}"'
        if error == "insufficient_scope":
            challenge += f', scope="{self.server.scope}"'
        self.answer(status, {"error": error, "error_description": description},
                    [("WWW-Authenticate", challenge)])

    def challenge(self):
        """RFC 9470: the person must authenticate with a second factor for this API."""
        policy = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"
        header = (f'Bearer error="insufficient_user_authentication", '
                  f'error_description="A second factor is required", acr_values="{policy}"')
        self.answer(401, {"error": "insufficient_user_authentication"}, [("WWW-Authenticate", header)])

    def answer(self, status, document, headers=()):
        body = json.dumps(document, sort_keys=True).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass  # never a token in a log; the app in front logs what it needs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--audience", required=True)
    parser.add_argument("--scope", required=True)
    parser.add_argument("--jwks")
    parser.add_argument("--name", default="API")
    parser.add_argument("--step-up", choices=["mfa"])
    parser.add_argument("--claims", default="", help="the namespace of the token's authentication claims")
    args = parser.parse_args()
    server = serve(args.listen, APIHandler)
    server.issuer = args.issuer
    server.audience = args.audience
    server.scope = args.scope
    server.name = args.name
    server.step_up = args.step_up
    server.claims = args.claims
    server.keys = Keys(args.jwks or args.issuer.rstrip("/") + "/.well-known/jwks.json")
    server.serve_forever()
    server.server_close()  # waits for the requests begun (stop_on_sigterm)


if __name__ == "__main__":
    main()
