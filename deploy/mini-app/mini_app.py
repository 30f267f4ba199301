#!/usr/bin/python3
"""The sample sibling ("mini") app behind nginx's /mini/ location.

It believes who the visitor is only from X-Auth-Assertion: a JWT (ES256) that Metadata demo's
/auth/check signs for each request, which it verifies on its own with the public keys at
/.well-known/jwks.json (PyJWT, Debian's python3-jwt), its issuer and its audience. So it trusts
neither the network between nginx and itself nor the X-Auth-* headers beside the assertion.
Each assertion is for one moment: its jti is refused more than a second after it was first seen,
so one copied from an earlier request (a log, a proxy) opens nothing. Its sid names the login it speaks
for, for an app that keeps sessions of its own (end yours when the sid changes). A kid the key
set does not hold makes it fetch the set again at most once per 30 s, so made-up kids cannot
make it hammer the site.

  mini_app.py --listen unix:/path/mini.sock|HOST:PORT --site https://demo.example.com
              [--audience URL] [--jwks URL] [--title TEXT] [--api unix:/path/api.sock|http://HOST:PORT]

--site is the product's APP_BASE_URL: the issuer is it with "/", the audience by default it
with "/mini/" (the product's ASSERTION_AUDIENCE; a mini app of MINI_APPS_FILE: its
assertion_audience, by default the site with its path), the keys by default at --site's
/.well-known/jwks.json. --title names it in its answers (default "mini app"). With --api, a
mini app of MINI_APPS_FILE with an "api" calls it (mini_api.py) as the person, with the access
token nginx hands it in X-Auth-Access-Token (the product's check obtained it for this app's API
alone), and shows the API's answer under its first line; when the API asks for stronger
authentication (RFC 9470: 401, error="insufficient_user_authentication" with acr_values and/or
max_age), it sends the browser to the product's login with them, to come back to this page.
"""
import argparse
import http.client
import http.server
import os
import re
import socket
import socketserver
import threading
import time
import urllib.parse

import jwt

# PyJWT's key fetch has no timeout of its own: no outbound call may wait forever.
socket.setdefaulttimeout(5)


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "mini-app"
    sys_version = ""

    def do_GET(self):
        token = self.headers.get("X-Auth-Assertion")
        if not token:
            return self.answer(401, "no identity assertion\n")
        try:
            key = self.server.keys.key_for(token)
            claims = jwt.decode(token, key, algorithms=["ES256"], audience=self.server.audience,
                                issuer=self.server.issuer, leeway=5,
                                options={"require": ["iss", "aud", "sub", "iat", "exp", "jti", "sid"]})
            self.server.seen.use(claims["jti"], claims["exp"])
        except (jwt.PyJWTError, OSError) as error:
            return self.answer(401, f"identity assertion refused: {error}\n")
        text = f"{self.server.title} for {claims['sub']} ({claims.get('email', '')})\n"
        if self.server.api:
            status, said, challenge = call_api(self.server.api, self.headers.get("X-Auth-Access-Token", ""))
            step_up = step_up_asked(status, challenge)
            if step_up is not None:
                return self.step_up(step_up)
            text += f"API {status}: {said}\n"
        self.answer(200, text)

    def step_up(self, asked):
        """To the product's login, asking what the API asked, and back to this page after."""
        query = urllib.parse.urlencode([("returnTo", self.path)] + asked)
        self.send_response(302)
        self.send_header("Location", "/login?" + query)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def answer(self, status, text):
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass  # nginx logs the requests; a unix peer has no address to print


class Keys:
    """The site's published keys, fetched again when a kid is not among them, but at most once
    per REFETCH_SECONDS: an unknown kid in a forged token must not cost a fetch each."""
    REFETCH_SECONDS = 30

    def __init__(self, url):
        self.client = jwt.PyJWKClient(url, cache_jwk_set=True, lifespan=300)
        self.lock = threading.Lock()
        self.last_refetch = float("-inf")

    def key_for(self, token):
        kid = jwt.get_unverified_header(token).get("kid")
        with self.lock:
            keys = {key.key_id: key for key in self.client.get_signing_keys()}
            if kid not in keys and time.monotonic() - self.last_refetch >= self.REFETCH_SECONDS:
                self.last_refetch = time.monotonic()
                keys = {key.key_id: key for key in self.client.get_signing_keys(refresh=True)}
        if kid not in keys:
            raise jwt.PyJWTError(f"no published key has the kid {kid!r}")
        return keys[kid].key


class SeenAssertions:
    """When each jti was first seen, until its assertion expires: a use more than ACCEPT_SECONDS
    after the first is refused. The product hands one assertion on for half a second at most (a
    page and the assets and calls it brings pass the check together), so a copy taken from a
    request opens nothing a second later."""
    ACCEPT_SECONDS = 1.0

    def __init__(self):
        self.lock = threading.Lock()
        self.first_seen = {}

    def use(self, jti, expires):
        now = time.monotonic()
        with self.lock:
            if len(self.first_seen) > 10000:
                self.first_seen = {seen: (at, until) for seen, (at, until) in self.first_seen.items()
                                   if until > time.time() - 10}
            first, _ = self.first_seen.setdefault(jti, (now, float(expires)))
            if now - first > self.ACCEPT_SECONDS:
                raise jwt.PyJWTError("this assertion was used already")


class UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP over a unix socket, where the example API listens beside its app."""

    def __init__(self, path):
        super().__init__("localhost", timeout=5)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(5)
        self.sock.connect(self.path)


def step_up_asked(status, challenge):
    """What an RFC 9470 challenge asks for ([(name, value)] of acr_values and max_age), or None."""
    if status != 401 or 'error="insufficient_user_authentication"' not in challenge:
        return None
    asked = re.findall(r'\b(acr_values|max_age)="?([^",]*)"?', challenge)
    return asked or None


def call_api(api, token):
    """GET / of the API with the person's token: its status, its answer's text, its challenge."""
    if api.startswith("unix:"):
        connection = UnixHTTPConnection(api[len("unix:"):])
    else:
        url = urllib.parse.urlsplit(api)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
    try:
        connection.request("GET", "/", headers={"Authorization": f"Bearer {token}"} if token else {})
        answer = connection.getresponse()
        challenge = answer.getheader("WWW-Authenticate", "")
        return answer.status, answer.read().decode(errors="replace").strip(), challenge
    except OSError as error:
        return 502, f"the API did not answer ({error})", ""
    finally:
        connection.close()


class UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


class TCPServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def serve(listen, handler=None):
    handler = handler or Handler
    if listen.startswith("unix:"):
        path = listen[len("unix:"):]
        if os.path.exists(path):  # left by a killed run: nothing answers on it any more
            probe = socket.socket(socket.AF_UNIX)
            try:
                probe.connect(path)
                raise SystemExit(f"mini_app: {path} is in use")
            except OSError:
                os.unlink(path)
            finally:
                probe.close()
        server = UnixServer(path, handler)
        os.chmod(path, 0o666)  # nginx's workers connect; the folder around it decides who reaches it
        return server
    host, _, port = listen.rpartition(":")
    return TCPServer((host, int(port)), handler)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--site", required=True)
    parser.add_argument("--audience")
    parser.add_argument("--jwks")
    parser.add_argument("--title", default="mini app")
    parser.add_argument("--api")
    args = parser.parse_args()
    site = args.site.rstrip("/")
    server = serve(args.listen)
    server.issuer = site + "/"
    server.audience = args.audience or site + "/mini/"
    server.keys = Keys(args.jwks or site + "/.well-known/jwks.json")
    server.seen = SeenAssertions()
    server.title = args.title
    server.api = args.api
    server.serve_forever()


if __name__ == "__main__":
    main()
