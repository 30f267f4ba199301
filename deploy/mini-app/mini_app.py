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
with "/mini/" (the product's IDENTITY_ASSERTION_AUDIENCE; a mini app of MINI_APPS_FILE: its
assertion_audience, by default the site with its path), the keys by default at --site's
/.well-known/jwks.json. --title and --title-zh name it (default "mini app").

Its pages are HTML in the product's look (the site's /static/app.css) and language: the product's
check says which in X-Auth-Language (en or zh), so the two always agree. Each shows the app's
title, who is logged in, what the app's API said as a person reads it, a link back to the product
and Log out. With --api, a mini app of MINI_APPS_FILE with an "api" calls it (mini_api.py) as the
person, with the access token nginx hands it in X-Auth-Access-Token (the product's check obtained
it for this app's API alone): the announcements, or the account's details; a refused token, a
missing permission or a silent API is a sentence and the way on. When the API asks for stronger
authentication (RFC 9470: 401, error="insufficient_user_authentication" with acr_values and/or
max_age), it sends the browser to the product's login with them, to come back to this page.
"""
import argparse
import html
import http.client
import http.server
import json
import os
import re
import signal
import socket
import socketserver
import sys
import threading
import time
import urllib.parse

import jwt

# PyJWT's key fetch has no timeout of its own: no outbound call may wait forever.
socket.setdefaulttimeout(5)


WORDS = {
    "en": {
        "logged_in": "Logged in as {name} ({email})",
        "back": "Back to Metadata demo",
        "log_out": "Log out",
        "no_announcements": "There are no announcements for you.",
        "account_id": "Account ID",
        "permissions": "Permissions",
        "none": "none",
        "second_factor": "Signed in with a second factor",
        "yes": "Yes",
        "no": "No",
        "access_until": "Access until",
        "service": "Service",
        "token_refused": "{title} could not confirm your sign-in with its service. Log in again to go on.",
        "log_in_again": "Log in again",
        "not_permitted": "Your account may not use this part of {title}.",
        "service_silent": "{title}'s service is not answering right now. Try again in a moment.",
        "unconfirmed_title": "Who you are could not be confirmed",
        "unconfirmed": "Open this page from Metadata demo while logged in.",
        "open_from_site": "Open Metadata demo",
    },
    "zh": {
        "logged_in": "已登录：{name}（{email}）",
        "back": "返回 Metadata demo",
        "log_out": "退出登录",
        "no_announcements": "目前没有给你的公告。",
        "account_id": "帐户 ID",
        "permissions": "权限",
        "none": "无",
        "second_factor": "登录时使用了第二重验证",
        "yes": "是",
        "no": "否",
        "access_until": "访问有效期至",
        "service": "服务",
        "token_refused": "「{title}」无法向它的服务确认你的登录。请重新登录后继续。",
        "log_in_again": "重新登录",
        "not_permitted": "你的帐户不能使用「{title}」的这一部分。",
        "service_silent": "「{title}」的服务暂时没有响应。请稍后再试。",
        "unconfirmed_title": "无法确认你的身份",
        "unconfirmed": "请在登录 Metadata demo 后从那里打开此页面。",
        "open_from_site": "打开 Metadata demo",
    },
}


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "mini-app"
    sys_version = ""

    def do_GET(self):
        language = self.headers.get("X-Auth-Language", "")
        self.language = language if language in WORDS else "en"
        token = self.headers.get("X-Auth-Assertion")
        if not token:
            return self.unconfirmed("no identity assertion")
        try:
            key = self.server.keys.key_for(token)
            claims = jwt.decode(token, key, algorithms=["ES256"], audience=self.server.audience,
                                issuer=self.server.issuer, leeway=5,
                                options={"require": ["iss", "aud", "sub", "iat", "exp", "jti", "sid"]})
            self.server.seen.use(claims["jti"], claims["exp"])
        except (jwt.PyJWTError, OSError) as error:
            return self.unconfirmed(f"identity assertion refused: {error}")
        said = self.say("logged_in", name=claims.get("name", ""), email=claims.get("email", ""))
        parts = [f'<p class="signed-in">{said}</p>']
        if self.server.api:
            status, answer, challenge = call_api(self.server.api, self.headers.get("X-Auth-Access-Token", ""))
            step_up = step_up_asked(status, challenge)
            if step_up is not None:
                return self.step_up(step_up)
            parts.append(self.api_part(status, answer))
        self.page(200, self.title(), parts)

    def title(self):
        return self.server.titles.get(self.language) or self.server.titles["en"]

    def say(self, key, **values):
        """The words of `key` in the page's language, every value escaped."""
        return WORDS[self.language][key].format(**{name: html.escape(str(value)) for name, value in values.items()})

    def api_part(self, status, answer):
        """What the API said, as a person reads it; an error is a sentence and the way on."""
        title = self.title()
        if status == 200 and isinstance(answer, dict):
            if "announcements" in answer:
                return self.announcements(answer["announcements"])
            return self.account(answer)
        if status == 401:
            login = "/login?" + urllib.parse.urlencode([("returnTo", self.path)])
            return (f'<p class="notice notice-error" role="alert">{self.say("token_refused", title=title)}</p>'
                    f'<p><a class="button" href="{html.escape(login)}">{self.say("log_in_again")}</a></p>')
        if status == 403:
            return f'<p class="notice notice-error" role="alert">{self.say("not_permitted", title=title)}</p>'
        return f'<p class="notice notice-error" role="alert">{self.say("service_silent", title=title)}</p>'

    def announcements(self, items):
        if not items:
            return f'<p>{self.say("no_announcements")}</p>'
        shown = []
        for item in items:
            heading = html.escape(item.get("title", {}).get(self.language, ""))
            text = html.escape(item.get("text", {}).get(self.language, ""))
            date = html.escape(item.get("date", ""))
            shown.append(f'<li class="item"><h2>{heading}</h2><p class="times">'
                         f'<time datetime="{date}">{date}</time></p><p>{text}</p></li>')
        return '<ul class="items">' + "".join(shown) + "</ul>"

    def account(self, answer):
        details = answer.get("account", {})
        permissions = ", ".join(answer.get("permissions") or []) or self.say("none")
        rows = [(self.say("account_id"), details.get("id", answer.get("sub", ""))),
                (self.say("permissions"), permissions)]
        if details.get("second_factor") is not None:
            rows.append((self.say("second_factor"), self.say("yes" if details["second_factor"] else "no")))
        if details.get("expires"):
            until = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(details["expires"]))
            rows.append((self.say("access_until"), until))
        rows.append((self.say("service"), answer.get("api", "")))
        shown = "".join(f"<dt>{name}</dt><dd>{html.escape(str(value))}</dd>" for name, value in rows)
        return f'<dl class="details">{shown}</dl>'

    def unconfirmed(self, reason):
        """401: the request did not come through the product's check (or its assertion failed)."""
        print(f"mini_app: refused a request: {reason}", file=sys.stderr, flush=True)
        self.page(401, self.say("unconfirmed_title"), [
            f'<p class="notice notice-error" role="alert">{self.say("unconfirmed")}</p>',
        ], links=False)

    def page(self, status, title, parts, links=True):
        back = ""
        if links:
            back = (f'<div class="row"><a class="button" href="/">{self.say("back")}</a>'
                    f'<a class="button" href="/logout">{self.say("log_out")}</a></div>')
        else:
            back = f'<p><a class="button" href="/">{self.say("open_from_site")}</a></p>'
        body = (f'<!doctype html>\n<html lang="{self.language}">\n<head>\n<meta charset="utf-8">\n'
                '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f'<title>{html.escape(title)}</title>\n<link rel="stylesheet" href="/static/app.css">\n'
                '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n</head>\n<body>\n'
                f'<main class="screen">\n<h1 class="title">{html.escape(title)}</h1>\n'
                + "\n".join(parts) + f"\n{back}\n</main>\n</body>\n</html>\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy",
                         "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
                         "form-action 'self'; frame-ancestors 'none'")
        self.end_headers()
        self.wfile.write(body)

    def step_up(self, asked):
        """To the product's login, asking what the API asked, and back to this page after."""
        query = urllib.parse.urlencode([("returnTo", self.path)] + asked)
        self.send_response(302)
        self.send_header("Location", "/login?" + query)
        self.send_header("Content-Length", "0")
        self.end_headers()

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
    """GET / of the API with the person's token: its status, its answer (JSON), its challenge."""
    if api.startswith("unix:"):
        connection = UnixHTTPConnection(api[len("unix:"):])
    else:
        url = urllib.parse.urlsplit(api)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
    try:
        connection.request("GET", "/", headers={"Authorization": f"Bearer {token}"} if token else {})
        answer = connection.getresponse()
        challenge = answer.getheader("WWW-Authenticate", "")
        try:
            document = json.loads(answer.read())
        except ValueError:
            document = None
        return answer.status, document, challenge
    except OSError:
        return 502, None, ""
    finally:
        connection.close()


class UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    # Requests in progress are finished, not cut, when the server stops (see stop_on_sigterm).
    daemon_threads = False
    block_on_close = True


class TCPServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = False
    block_on_close = True


def socket_from_systemd():
    """The listening socket systemd passed (sd_listen_fds: LISTEN_PID and LISTEN_FDS, the first
    at fd 3), as a .socket unit holds it: it stays open while this program restarts."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()) or int(os.environ.get("LISTEN_FDS", "0")) < 1:
        raise SystemExit("mini_app: --listen systemd needs the socket from a .socket unit (LISTEN_FDS)")
    listener = socket.socket(fileno=3)
    for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        os.environ.pop(name, None)
    return listener


def stop_on_sigterm(server):
    """On SIGTERM (systemctl stop, restart, an upgrade), stops taking new connections and exits
    once the requests begun are answered; with systemd's socket, what arrives meanwhile waits in
    its queue for the next start. No request is cut."""
    def stop(_signal, _frame):
        threading.Thread(target=server.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)


def serve(listen, handler=None):
    handler = handler or Handler
    if listen == "systemd":
        listener = socket_from_systemd()
        server_class = UnixServer if listener.family == socket.AF_UNIX else TCPServer
        server = server_class(listener.getsockname(), handler, bind_and_activate=False)
        server.socket.close()
        server.socket = listener
    elif listen.startswith("unix:"):
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
    else:
        host, _, port = listen.rpartition(":")
        server = TCPServer((host, int(port)), handler)
    stop_on_sigterm(server)
    tell_systemd_ready()
    return server


def tell_systemd_ready():
    """Under a unit of Type=notify, says that the socket listens (sd_notify's READY=1), so
    `systemctl start` returns only once nginx can reach the app."""
    path = os.environ.get("NOTIFY_SOCKET", "")
    if not path:
        return
    if path.startswith("@"):  # an abstract socket's name
        path = "\0" + path[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.connect(path)
        notify.sendall(b"READY=1")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--site", required=True)
    parser.add_argument("--audience")
    parser.add_argument("--jwks")
    parser.add_argument("--title", default="mini app")
    parser.add_argument("--title-zh")
    parser.add_argument("--api")
    args = parser.parse_args()
    site = args.site.rstrip("/")
    server = serve(args.listen)
    server.issuer = site + "/"
    server.audience = args.audience or site + "/mini/"
    server.keys = Keys(args.jwks or site + "/.well-known/jwks.json")
    server.seen = SeenAssertions()
    server.titles = {"en": args.title, "zh": args.title_zh or args.title}
    server.api = args.api
    server.serve_forever()
    server.server_close()  # waits for the requests begun (stop_on_sigterm)


if __name__ == "__main__":
    main()
