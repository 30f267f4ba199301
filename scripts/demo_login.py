"""Logs a demo person in through the product and the dev tenant, as a browser would.

  demo_login.py cookie APP_URL EMAIL PASSWORD     prints the Cookie header of a logged-in session
  demo_login.py rate APP_URL EMAIL PASSWORD SECS  full login round trips per second (2 threads)
"""
import http.client
import re
import sys
import threading
import time
import urllib.parse


def request(url, method="GET", body=None, cookies=None, headers=None):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    path = parts.path + ("?" + parts.query if parts.query else "")
    all_headers = dict(headers or {})
    if cookies:
        all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    if body is not None:
        all_headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=all_headers)
    response = conn.getresponse()
    text = response.read().decode()
    for header, value in response.getheaders():
        if header.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            cookie_value = rest.split(";", 1)[0]
            if "Max-Age=0" in value:
                cookies.pop(name, None)
            else:
                cookies[name] = cookie_value
    conn.close()
    return response.status, response.getheader("Location"), text


def login(app, email, password):
    cookies = {}
    status, authorize, _ = request(app + "/login", cookies=cookies)
    assert status == 302, status
    status, location, page = request(authorize, cookies=cookies)
    if status != 302:  # the tenant's login page (no tenant session yet)
        tx = re.search(r'name="tx" value="([^"]*)"', page).group(1)
        tenant = authorize.split("/authorize")[0]
        form = urllib.parse.urlencode({"tx": tx, "email": email, "password": password, "action": "login"})
        status, location, _ = request(tenant + "/u/login", "POST", form, cookies=cookies)
        assert status == 302, status
    status, _, _ = request(location, cookies=cookies)
    assert status == 302, status
    return {k: v for k, v in cookies.items() if k.startswith("mds") or k.startswith("__Host-mds")}


def main():
    mode, app, email, password = sys.argv[1:5]
    if mode == "cookie":
        print("; ".join(f"{k}={v}" for k, v in login(app, email, password).items()))
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
