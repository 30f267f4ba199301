"""Logs a demo person in through the product and the dev tenant, as a browser would.

  demo_login.py cookie APP_URL EMAIL PASSWORD PATH...
                                                  logs in once, then prints for each PATH the Cookie
                                                  header a browser sends there (the session's
                                                  cookies are scoped by Path)
  demo_login.py rate APP_URL EMAIL PASSWORD SECS  full login round trips per second (2 threads)
"""
import http.client
import re
import sys
import threading
import time
import urllib.parse


def path_matches(request_path, cookie_path):
    """RFC 6265 section 5.1.4."""
    if not request_path.startswith(cookie_path):
        return False
    return len(request_path) == len(cookie_path) or cookie_path.endswith("/") or request_path[len(cookie_path)] == "/"


def cookie_header(cookies, path):
    """cookies maps (name, path) to a value; the header a browser sends to `path`."""
    return "; ".join(f"{name}={value}" for (name, cookie_path), value in sorted(cookies.items())
                     if path_matches(path, cookie_path))


def request(url, method="GET", body=None, cookies=None, headers=None):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    path = parts.path + ("?" + parts.query if parts.query else "")
    all_headers = dict(headers or {})
    sent = cookie_header(cookies or {}, parts.path or "/")
    if sent:
        all_headers["Cookie"] = sent
    if body is not None:
        all_headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=all_headers)
    response = conn.getresponse()
    text = response.read().decode()
    for header, value in response.getheaders():
        if header.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            cookie_value, *attributes = [part.strip() for part in rest.split(";")]
            paths = [a[len("Path="):] for a in attributes if a.startswith("Path=")]
            key = (name, paths[0] if paths else "/")
            if "Max-Age=0" in attributes:
                cookies.pop(key, None)
            else:
                cookies[key] = cookie_value
    conn.close()
    return response.status, response.getheader("Location"), text


def login(app, email, password, keep_tenant=False):
    """The cookies of one login; the dev tenant's too with keep_tenant (to log out there)."""
    cookies = {}
    status, authorize, _ = request(app + "/login", cookies=cookies)
    assert status == 302, status
    status, location, page = request(authorize, cookies=cookies)
    tenant = authorize.split("/authorize")[0]
    if status != 302 and 'action="/u/login"' in page:  # the tenant's login page (no tenant session yet)
        tx = re.search(r'name="tx" value="([^"]*)"', page).group(1)
        form = urllib.parse.urlencode({"tx": tx, "email": email, "password": password, "action": "login"})
        status, location, page = request(tenant + "/u/login", "POST", form, cookies=cookies)
    if status != 302 and 'action="/u/consent"' in page:  # the first authorization of the app: Accept
        tx = re.search(r'name="tx" value="([^"]*)"', page).group(1)
        form = urllib.parse.urlencode({"tx": tx, "action": "accept"})
        status, location, _ = request(tenant + "/u/consent", "POST", form, cookies=cookies)
    assert status == 302, status
    status, _, _ = request(location, cookies=cookies)
    assert status == 302, status
    if keep_tenant:
        return cookies
    # The product's cookies only (the dev tenant's share the jar: cookies ignore ports).
    return {key: value for key, value in cookies.items() if not key[0].startswith("devtenant")}


def main():
    mode, app, email, password = sys.argv[1:5]
    if mode == "cookie":
        cookies = login(app, email, password)
        for path in sys.argv[5:] or ["/"]:
            print(cookie_header(cookies, path))
        return
    seconds = float(sys.argv[5])
    count = [0, 0]
    deadline = time.time() + seconds

    def worker(slot):
        while time.time() < deadline:
            login(app, email, password)
            count[slot] += 1

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"{sum(count) / (time.time() - start):.1f}")


if __name__ == "__main__":
    main()
