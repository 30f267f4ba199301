"""Debian's LemonLDAP::NG (2.16), an OpenID-certified provider nobody here wrote, started for the
tests as its own documentation describes a portal: the package's shipped configuration
(/var/lib/lemonldap-ng/conf/lmConf-1.json: its "Demo" people, dwho/dwho among them) with this
run's portal address, folders and signing key, its OpenID Connect issuer turned on, and one
relying party set for front-channel logout as the product's README says. The portal is the
package's own PSGI application (Lemonldap::NG::Portal) started by Plack's plackup, its static
files beside it, as the package's nginx site would; Debian's Starman serves it with a few
worker processes (a browser's open connection must not hold up the product's token call). This file only writes that configuration and
runs the portal; every protocol check is LemonLDAP::NG's.

  python lemonldap_provider.py --port N --dir DIR --client-id ID --client-secret S
         --redirect-uri URL --logged-out-uri URL --frontchannel-logout-uri URL

Prints "ready ISSUER" on stdout once its discovery document answers, then serves until stopped.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

PACKAGE_CONFIG = "/var/lib/lemonldap-ng/conf/lmConf-1.json"
PORTAL_STATIC = "/usr/share/lemonldap-ng/portal/htdocs"
TEMPLATES = "/usr/share/lemonldap-ng/portal/templates"
PORTAL = """
use Plack::Builder;
use Lemonldap::NG::Portal;
builder {
    enable "Static", path => qr{^/static/}, root => "%s";
    Lemonldap::NG::Portal->run({});
};
"""


def signing_key(directory):
    """An RSA key for the issuer's ID tokens, made by openssl: (private PEM, public PEM)."""
    private = f"{directory}/oidc-key.pem"
    subprocess.run(["openssl", "genrsa", "-out", private, "2048"], check=True, capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", private, "-pubout"], check=True, capture_output=True).stdout
    return open(private).read(), public.decode()


def configuration(args, portal, directory):
    """The package's configuration with this run's portal, folders, key and relying party."""
    conf = json.load(open(PACKAGE_CONFIG))
    for name in ("sessions", "sessions/lock", "psessions", "psessions/lock", "cache", "conf"):
        os.makedirs(f"{directory}/{name}", exist_ok=True)
    private, public = signing_key(directory)
    conf.update({
        "cfgNum": 1,
        "portal": portal,
        "domain": "127.0.0.1",
        "globalStorageOptions": {**conf["globalStorageOptions"], "Directory": f"{directory}/sessions",
                                 "LockDirectory": f"{directory}/sessions/lock"},
        "persistentStorageOptions": {"Directory": f"{directory}/psessions",
                                     "LockDirectory": f"{directory}/psessions/lock"},
        "localSessionStorageOptions": {**conf["localSessionStorageOptions"], "cache_root": f"{directory}/cache"},
        "notification": 0,
        "reloadUrls": {},
        "locationRules": {"127.0.0.1": {"default": "accept"}},
        "issuerDBOpenIDConnectActivation": 1,
        "oidcServicePrivateKeySig": private,
        "oidcServicePublicKeySig": public,
        "oidcServiceKeyIdSig": "lemonldap-test",
        "oidcRPMetaDataOptions": {
            "metadata-demo": {
                "oidcRPMetaDataOptionsClientID": args.client_id,
                "oidcRPMetaDataOptionsClientSecret": args.client_secret,
                "oidcRPMetaDataOptionsRedirectUris": args.redirect_uri,
                "oidcRPMetaDataOptionsPostLogoutRedirectUris": args.logged_out_uri,
                "oidcRPMetaDataOptionsIDTokenSignAlg": "RS256",
                "oidcRPMetaDataOptionsBypassConsent": 1,
                "oidcRPMetaDataOptionsAllowOffline": 1,
                "oidcRPMetaDataOptionsRefreshToken": 1,
                # README's "Front-channel logout": the product's address, with the session
                # required (LemonLDAP::NG then sends iss and its user's id as sid).
                "oidcRPMetaDataOptionsLogoutType": "front",
                "oidcRPMetaDataOptionsLogoutUrl": args.frontchannel_logout_uri,
                "oidcRPMetaDataOptionsLogoutSessionRequired": 1,
            }
        },
        "oidcRPMetaDataExportedVars": {"metadata-demo": {"email": "mail", "name": "cn", "preferred_username": "uid"}},
    })
    json.dump(conf, open(f"{directory}/conf/lmConf-1.json", "w"), indent=1)
    with open(f"{directory}/lemonldap-ng.ini", "w") as ini:
        ini.write(f"""[all]
logLevel = {args.log_level}
checkTime = 1
[configuration]
type = File
dirName = {directory}/conf
[portal]
staticPrefix = /static
templateDir = {TEMPLATES}
languages = en
""")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--port", "--dir", "--client-id", "--client-secret", "--redirect-uri", "--logged-out-uri",
                 "--frontchannel-logout-uri"):
        parser.add_argument(name, required=True)
    parser.add_argument("--log-level", default="notice")
    args = parser.parse_args()
    directory = os.path.abspath(args.dir)
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    portal = f"http://127.0.0.1:{args.port}/"
    configuration(args, portal, directory)
    environment = {**os.environ, "LLNG_DEFAULTCONFFILE": f"{directory}/lemonldap-ng.ini"}
    server = subprocess.Popen(
        ["plackup", "-s", "Starman", "--workers", "4", "--host", "127.0.0.1", "--port", args.port,
         "-e", PORTAL % PORTAL_STATIC], env=environment)
    signal.signal(signal.SIGTERM, lambda *_: (server.terminate(), sys.exit(0)))
    issuer = portal.rstrip("/")
    deadline = time.time() + 60
    while time.time() < deadline:
        if server.poll() is not None:
            sys.exit(f"lemonldap_provider: plackup exited with {server.returncode}")
        try:
            with urllib.request.urlopen(portal + ".well-known/openid-configuration", timeout=5) as answer:
                issuer = json.load(answer)["issuer"]
                break
        except OSError:
            time.sleep(0.2)
    else:
        server.terminate()
        sys.exit("lemonldap_provider: the portal's discovery document did not answer within 60 s")
    print(f"ready {issuer}", flush=True)
    server.wait()


if __name__ == "__main__":
    main()
