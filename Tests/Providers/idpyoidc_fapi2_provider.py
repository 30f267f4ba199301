"""A FAPI 2.0 provider for the tests, built on PyPI's idpyoidc 5.0 (the Identity Python project's
OpenID Connect and OAuth 2.0 library, nobody's here): its server with its own endpoints for
discovery, pushed authorization requests (RFC 9126), authorization (naming itself in every
response: `iss`, RFC 9207), token, UserInfo and keys; its own client authentication
(`private_key_jwt` with the client's public key), its own PKCE add-on (S256 required) and its own
DPoP proof class. Its person is signed in by its own `NoAuthn` method (no form to fill).

What idpyoidc 5.0's DPoP add-on lacks, added here with idpyoidc's own functions, and nothing else:
1. Its `add_support` hooks the proof check only onto UserInfo, so the token endpoint never binds
   a token (no `token_type: DPoP`): its own `token_post_parse_request` is hooked onto the token
   endpoint too, after which its own access-token helper binds the token (`cnf.jkt`).
2. It puts `dpop_signing_alg_values_supported` into the provider's information before the server
   makes its discovery document again, where it is lost: it is put back after.
3. At UserInfo it registers its `DPoPClientAuth` (the `DPoP` scheme) but leaves the endpoint
   taking `Bearer` alone, and its proof check compares `ath` with a hex SHA-256 digest, where
   RFC 9449 §4.2 has the base64url of it (a correct client fails): the endpoint takes both
   schemes, and the same check runs with `ath` as RFC 9449 says, using its own `DPoPProof`.
4. It sends `iss` in every authorization response but does not say so in its discovery document:
   `authorization_response_iss_parameter_supported` (RFC 9207) is put in beside the DPoP metadata.
5. RFC 9126 §4: a request by reference carries `client_id` and `request_uri` alone; idpyoidc 5.0
   checks the query as a whole authorization request (`response_type`, `redirect_uri`, …) before
   it restores the pushed one (its own test sends them again), so the pushed request's
   parameters that the query lacks are copied into it from what it keeps (its `par_db`); it then
   restores the pushed request whole, as it always does.
Everything else is idpyoidc's: this file only configures its server and carries HTTP to it.

  python idpyoidc_fapi2_provider.py --port N --client-id ID --client-key PEM-FILE
         --redirect-uri URL [--tamper-iss]

--tamper-iss makes the authorization response name another issuer (a mix-up attack's shape),
which the client must refuse before the code exchange.
Prints "ready ISSUER" on stdout once listening, then serves until stopped.
"""
import argparse
import base64
import hashlib
import http.server
import json
import logging
import sys
import urllib.parse

from cryptojwt.jwk.jwk import key_from_jwk_dict
from cryptojwt.jwk.rsa import RSAKey
from cryptojwt.jwk.rsa import import_public_key_from_pem_file
from idpyoidc.message.oauth2 import ResponseMessage
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.oauth2.add_on import dpop
from idpyoidc.server.oauth2.pushed_authorization import PushedAuthorization
from idpyoidc.server.oidc.authorization import Authorization
from idpyoidc.server.oidc.provider_config import ProviderConfiguration
from idpyoidc.server.oidc.token import Token
from idpyoidc.server.oidc.userinfo import UserInfo
from idpyoidc.server.user_info import UserInfo as UserInfoDB

PERSON = {"diana": {"sub": "diana", "name": "Diana Krall", "email": "diana@example.org", "email_verified": True}}


def userinfo_dpop_check(request, client_id, context, auth_info, **kwargs):
    """idpyoidc's UserInfo DPoP check with `ath` as RFC 9449 §4.2 has it: the base64url (no
    padding) of the access token's SHA-256 (idpyoidc 5.0 compares a hex digest)."""
    http_info = kwargs.get("http_info") or {}
    header = (http_info.get("headers") or {}).get("dpop", "")
    if not header:
        raise ValueError("Expected DPoP header, none found")
    proof = dpop.DPoPProof().verify_header(header)
    if proof["htu"] != http_info["url"].split("?")[0] or proof["htm"] != http_info["method"]:
        raise ValueError("htu or htm in DPoP does not match the request")
    token = auth_info.get("token")
    if token:
        ath = base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()
        if proof.get("ath") != ath:
            raise ValueError("'ath' in DPoP does not match the token hash")
    key = proof.key or key_from_jwk_dict(proof["jwk"])
    request["dpop_jkt"] = key.thumbprint("SHA-256").decode()
    return request


def configuration(issuer):
    return {
        "issuer": issuer,
        "httpc_params": {"verify": False, "timeout": 5},
        "keys": {"key_defs": [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}],
                 "uri_path": "jwks.json", "read_only": False},
        "token_handler_args": {
            "jwks_def": {"read_only": False, "key_defs": [
                {"type": "oct", "bytes": 24, "use": ["enc"], "kid": "code"},
                {"type": "oct", "bytes": 24, "use": ["enc"], "kid": "refresh"}]},
            "code": {"lifetime": 600, "kwargs": {"crypt_conf": {
                "kwargs": {"keys": {"key_defs": [
                    {"type": "OCT", "use": ["enc"], "kid": "password"},
                    {"type": "OCT", "use": ["enc"], "kid": "salt"}]}, "iterations": 1}}}},
            "token": {"class": "idpyoidc.server.token.jwt_token.JWTToken",
                      "kwargs": {"lifetime": 3600, "aud": [issuer]}},
            "refresh": {"class": "idpyoidc.server.token.jwt_token.JWTToken", "kwargs": {"lifetime": 86400}},
            # The ID token names the person by `sub` alone: name and email come from UserInfo,
            # which the client then calls with its DPoP-bound token.
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
        },
        "endpoint": {
            "provider_config": {"path": ".well-known/openid-configuration", "class": ProviderConfiguration},
            "pushed_authorization": {"path": "par", "class": PushedAuthorization,
                                     "kwargs": {"client_authn_method": ["private_key_jwt"]}},
            "authorization": {"path": "authorize", "class": Authorization, "kwargs": {
                "response_types_supported": ["code"], "response_modes_supported": ["query"],
                "request_parameter_supported": False, "request_uri_parameter_supported": True,
                "authorization_response_iss_parameter_supported": True}},
            "token": {"path": "token", "class": Token, "kwargs": {"client_authn_method": ["private_key_jwt"]}},
            "userinfo": {"path": "userinfo", "class": UserInfo, "kwargs": {}},
        },
        "add_on": {
            "pkce": {"function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                     "kwargs": {"essential": True, "code_challenge_method": "S256"}},
            "dpop": {"function": "idpyoidc.server.oauth2.add_on.dpop.add_support",
                     "kwargs": {"dpop_signing_alg_values_supported": ["ES256"]}},
        },
        "authentication": {"anon": {"acr": "urn:oasis:names:tc:SAML:2.0:ac:classes:Password",
                                    "class": "idpyoidc.server.user_authn.user.NoAuthn",
                                    "kwargs": {"user": "diana"}}},
        "userinfo": {"class": UserInfoDB, "kwargs": {"db": PERSON}},
        "authz": {"class": "idpyoidc.server.authz.AuthzHandling",
                  "kwargs": {"grant_config": {"usage_rules": {
                      "authorization_code": {"supports_minting": ["access_token", "refresh_token", "id_token"],
                                             "max_usage": 1},
                      "access_token": {}, "refresh_token": {"supports_minting": ["access_token", "refresh_token"]}},
                      "expires_in": 43200}}},
        "session_params": {"encrypter": {"kwargs": {"keys": {"key_defs": [
            {"type": "OCT", "use": ["enc"], "kid": "password"},
            {"type": "OCT", "use": ["enc"], "kid": "salt"}]}, "iterations": 1}}},
        "claims_interface": {"class": "idpyoidc.server.session.claims.ClaimsInterface"},
    }


def make_server(args, issuer):
    server = Server(OPConfiguration(conf=configuration(issuer), base_path="."), cwd=".")
    context = server.context
    context.cdb[args.client_id] = {
        "client_id": args.client_id, "client_salt": "salted", "redirect_uris": [(args.redirect_uri, {})],
        "token_endpoint_auth_method": "private_key_jwt", "response_types_supported": ["code"],
        "allowed_scopes": ["openid", "profile", "email", "offline_access"],
        "id_token_signed_response_alg": "PS256",
    }
    public = import_public_key_from_pem_file(args.client_key)
    # Registered as the client's key set publishes it: its kid the RFC 7638 thumbprint.
    client_key = RSAKey(pub_key=public, use="sig")
    client_key.add_kid()
    server.keyjar.add_keys(args.client_id, [client_key])
    # Additions 1 and 3 (see the header): the token endpoint binds, UserInfo checks `ath` right.
    server.get_endpoint("token").post_parse_request.append(dpop.token_post_parse_request)
    userinfo = server.get_endpoint("userinfo")
    userinfo.client_authn_method = ["bearer_header", "dpop"]
    userinfo.post_parse_request = [
        userinfo_dpop_check if check is dpop.userinfo_post_parse_request else check
        for check in userinfo.post_parse_request
    ]
    # Additions 2 and 4: the DPoP metadata, lost when the discovery document was made again, and
    # RFC 9207's flag for the `iss` it always sends.
    context.provider_info["dpop_signing_alg_values_supported"] = ["ES256"]
    context.provider_info["authorization_response_iss_parameter_supported"] = True
    context.provider_info["id_token_signing_alg_values_supported"] = ["PS256", "ES256", "RS256"]
    return server


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # one request a connection: this server answers one at a time

    def log_message(self, format, *values):
        sys.stderr.write("idpyoidc: " + (format % values) + "\n")

    def do_GET(self):
        self.serve("GET")

    def do_POST(self):
        self.serve("POST")

    def answer(self, status, body, headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def serve(self, method):
        server = self.server.op
        url = urllib.parse.urlsplit(self.path)
        issuer = self.server.issuer
        if url.path == "/jwks.json":
            keys = server.keyjar.export_jwks(issuer_id="")
            return self.answer(200, json.dumps(keys), [("Content-Type", "application/json")])
        endpoint = self.server.by_path.get(url.path)
        if endpoint is None:
            return self.answer(404, "not found")
        headers = {name.lower(): value for name, value in self.headers.items()}
        http_info = {"headers": headers, "method": method, "url": issuer + url.path}
        if method == "GET":
            request = dict(urllib.parse.parse_qsl(url.query))
            # Addition 5 (see the header): what idpyoidc checks before restoring a pushed request.
            pushed = server.context.par_db.get(request.get("request_uri", ""))
            if url.path == "/authorize" and pushed is not None:
                for name, value in pushed.to_dict().items():
                    if name not in request:
                        request[name] = " ".join(value) if isinstance(value, list) else value
        else:
            request = self.rfile.read(int(headers.get("content-length", "0"))).decode()
        try:
            parsed = endpoint.parse_request(request, http_info=http_info)
        except Exception as error:  # idpyoidc raises what it refuses; the client reads a 400
            return self.refuse(400, "invalid_request", str(error))
        if isinstance(parsed, ResponseMessage) and "error" in parsed:
            status = 401 if parsed["error"] in ("invalid_client", "unauthorized_client") else 400
            return self.refuse(status, parsed["error"], parsed.get("error_description", ""))
        try:
            result = endpoint.process_request(parsed, http_info=http_info)
        except Exception as error:
            return self.refuse(400, "invalid_request", str(error))
        if "http_response" in result:  # the pushed request's reference: 201, as RFC 9126 says
            return self.answer(201, json.dumps(result["http_response"]), [("Content-Type", "application/json")])
        if isinstance(result, ResponseMessage) and "error" in result:
            return self.refuse(400, result["error"], result.get("error_description", ""))
        info = endpoint.do_response(request=parsed, **result)
        placement = info.get("response_placement", endpoint.response_placement)
        headers = list(info.get("http_headers", []))
        if placement == "url":
            location = info["response"]
            if self.server.tamper_iss:
                location = location.replace("iss=" + urllib.parse.quote(issuer, safe=""),
                                            "iss=" + urllib.parse.quote("https://attacker.example/", safe=""))
            return self.answer(302, "", headers + [("Location", location)])
        return self.answer(info.get("response_code", 200), info["response"], headers)

    def refuse(self, status, error, description):
        sys.stderr.write(f"idpyoidc: refused {self.path.split('?')[0]}: {error}: {description}\n")
        body = json.dumps({"error": error, "error_description": description})
        self.answer(status, body, [("Content-Type", "application/json")])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-key", required=True, help="the client's public key, PEM")
    parser.add_argument("--redirect-uri", required=True)
    parser.add_argument("--tamper-iss", action="store_true")
    args = parser.parse_args()
    # Why a client's authentication failed is idpyoidc's to say: its log, on standard error.
    logging.basicConfig(stream=sys.stderr, format="idpyoidc: %(name)s: %(message)s")
    logging.getLogger("idpyoidc.server.client_authn").setLevel(logging.INFO)
    issuer = f"http://127.0.0.1:{args.port}"
    op = make_server(args, issuer)
    httpd = http.server.HTTPServer(("127.0.0.1", args.port), Handler)
    httpd.op = op
    httpd.issuer = issuer
    httpd.tamper_iss = args.tamper_iss
    httpd.by_path = {"/" + endpoint.endpoint_path: endpoint for endpoint in op.endpoint.values()}
    print(f"ready {issuer}", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
