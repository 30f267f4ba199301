#!/usr/bin/python3
"""The sample sibling ("mini") app behind nginx's /mini/ location.

It believes who the visitor is only from X-Auth-Assertion: a JWT (ES256) that Metadata demo's
/auth/check signs for the minute, which it verifies on its own with the public keys at
/.well-known/jwks.json (PyJWT, Debian's python3-jwt), its issuer and its audience. So it trusts
neither the network between nginx and itself nor the X-Auth-* headers beside the assertion.

  mini_app.py --listen unix:/path/mini.sock|HOST:PORT --site https://demo.example.com
              [--audience URL] [--jwks URL]

--site is the product's APP_BASE_URL: the issuer is it with "/", the audience by default it
with "/mini/" (the product's ASSERTION_AUDIENCE), the keys by default at --site's
/.well-known/jwks.json.
"""
import argparse
import http.server
import os
import socket
import socketserver

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
            key = self.server.keys.get_signing_key_from_jwt(token).key
            claims = jwt.decode(token, key, algorithms=["ES256"], audience=self.server.audience,
                                issuer=self.server.issuer, leeway=5,
                                options={"require": ["iss", "aud", "sub", "iat", "exp"]})
        except (jwt.PyJWTError, OSError) as error:
            return self.answer(401, f"identity assertion refused: {error}\n")
        self.answer(200, f"mini app for {claims['sub']} ({claims.get('email', '')})\n")

    def answer(self, status, text):
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass  # nginx logs the requests; a unix peer has no address to print


class UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


class TCPServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def serve(listen):
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
        server = UnixServer(path, Handler)
        os.chmod(path, 0o666)  # nginx's workers connect; the folder around it decides who reaches it
        return server
    host, _, port = listen.rpartition(":")
    return TCPServer((host, int(port)), Handler)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--site", required=True)
    parser.add_argument("--audience")
    parser.add_argument("--jwks")
    args = parser.parse_args()
    site = args.site.rstrip("/")
    server = serve(args.listen)
    server.issuer = site + "/"
    server.audience = args.audience or site + "/mini/"
    server.keys = jwt.PyJWKClient(args.jwks or site + "/.well-known/jwks.json", cache_keys=True, lifespan=300)
    server.serve_forever()


if __name__ == "__main__":
    main()
