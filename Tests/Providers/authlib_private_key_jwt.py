"""PyPI's oidc-provider-mock (Flask and Authlib) with Authlib's own RFC 7523 client authentication
turned on, for the tests of private_key_jwt against code nobody here wrote. This file is only the
wiring: one client, registered for private_key_jwt with the public key in --public-key (a PEM), or
with the key set it publishes at --jwks-uri (read at each assertion, as a provider that follows a
client's rotation does; joserfc picks the key the assertion's kid names), whose assertions Authlib's
JWTBearerClientAssertion checks (signature, iss = sub, aud, exp, a jti used once), everything else
the mock's own (its issuer without a trailing slash, RS256 ID tokens, no kid). With
--by-certificate, the key is the one whose certificate (its x5c) the assertion's header names by
its thumbprints, x5t#S256 and x5t, as Microsoft Entra ID knows a certificate credential; the
thumbprints are computed by PyPI's cryptography, the signature still checked by Authlib.

  python authlib_private_key_jwt.py --port N --client-id ID --redirect-uri URL
         (--public-key FILE | --jwks-uri URL [--by-certificate])
"""
import base64
import json
import urllib.request
import argparse
import logging
import os
import sys
import threading

import flask
import uvicorn
from authlib.oauth2.rfc6749 import InvalidClientError
from authlib.oauth2.rfc7523 import JWTBearerClientAssertion
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from joserfc.jwk import KeySet, RSAKey

import oidc_provider_mock
from oidc_provider_mock._app import AuthorizationCodeGrant, RefreshTokenGrant
from oidc_provider_mock._storage import Client


class PrivateKeyJWT(JWTBearerClientAssertion):
    """Authlib's assertion checks, with what it leaves to the server: the audiences this provider
    answers to (its token endpoint, RFC 7523 and OpenID Connect Core 9), the client's key, and
    the jtis seen."""

    CLIENT_AUTH_METHOD = "private_key_jwt"

    def __init__(self, token_endpoint, public_key, by_certificate=False):
        super().__init__(validate_jti=True, leeway=0)
        self.token_endpoint = token_endpoint
        self.public_key = public_key
        self.by_certificate = by_certificate
        self.seen = set()
        self.lock = threading.Lock()
        self.current = threading.local()

    def extract_assertion(self, assertion):
        headers, claims = super().extract_assertion(assertion)
        self.current.headers = headers  # for the key's lookup by certificate, in this request
        return headers, claims

    def get_audiences(self):
        return [self.token_endpoint]

    def resolve_client_public_key(self, client):
        if isinstance(self.public_key, str):  # the client's jwks_uri
            with urllib.request.urlopen(self.public_key, timeout=5) as answer:
                published = json.load(answer)
            if self.by_certificate:
                return key_by_certificate(published, self.current.headers)
            return KeySet.import_key_set(published)
        return self.public_key

    def validate_jti(self, claims, jti):
        with self.lock:
            if (claims["sub"], jti) in self.seen:
                return False
            self.seen.add((claims["sub"], jti))
            return True


def thumbprint(certificate, digest):
    return base64.urlsafe_b64encode(certificate.fingerprint(digest)).rstrip(b"=").decode()


def key_by_certificate(published, headers):
    """The public key of the published certificate whose SHA-256 and SHA-1 thumbprints are the
    header's x5t#S256 and x5t; none: the client is refused."""
    for key in published.get("keys", []):
        for encoded in key.get("x5c", [])[:1]:
            certificate = x509.load_der_x509_certificate(base64.b64decode(encoded))
            if (thumbprint(certificate, hashes.SHA256()) == headers.get("x5t#S256")
                    and thumbprint(certificate, hashes.SHA1()) == headers.get("x5t")):
                return RSAKey.import_key(certificate.public_key().public_bytes(
                    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    raise InvalidClientError(description="no registered certificate has the assertion's x5t#S256 and x5t")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--redirect-uri", required=True)
    keys = parser.add_mutually_exclusive_group(required=True)
    keys.add_argument("--public-key")
    keys.add_argument("--jwks-uri")
    parser.add_argument("--by-certificate", action="store_true")
    args = parser.parse_args()
    os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"
    logging.basicConfig(stream=sys.stderr, level=logging.INFO)
    logging.getLogger("authlib").setLevel(logging.DEBUG)

    # Authlib's grants name the client authentications they take (Authlib's documented way).
    for grant in (AuthorizationCodeGrant, RefreshTokenGrant):
        grant.TOKEN_ENDPOINT_AUTH_METHODS = ["private_key_jwt"]
    if args.public_key:
        with open(args.public_key) as pem:
            key = RSAKey.import_key(pem.read())
    else:
        key = args.jwks_uri
    app = oidc_provider_mock.app(require_client_registration=True)
    token_endpoint = f"http://127.0.0.1:{args.port}/oauth2/token"
    method = PrivateKeyJWT(token_endpoint, key, args.by_certificate)
    wired = []

    @app.before_request
    def wire():
        # The mock makes its authorization server and storage per app, inside its blueprint's
        # setup (its own hook, which runs first, puts them in flask.g); reached here once.
        if not wired:
            flask.g._authlib_authorization_server.register_client_auth_method(method.CLIENT_AUTH_METHOD, method)
            flask.g.oidc_provider_mock_storage.store_client(
                Client(
                    id=args.client_id, secret="", redirect_uris=[args.redirect_uri],
                    allowed_scopes=Client.SCOPES_SUPPORTED, token_endpoint_auth_method="private_key_jwt"))
            wired.append(True)

    uvicorn.run(app, interface="wsgi", host="127.0.0.1", port=args.port, log_level="info")


if __name__ == "__main__":
    main()
