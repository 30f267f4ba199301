"""The cluster of scripts/cluster: its network namespaces, processes and what a chaos run reads."""
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "scripts"))
import demo_login  # noqa: E402

NET = "10.77.0"
BRIDGE = "mdcluster0"
FRONT_PORT = int(os.environ.get("CLUSTER_PORT", "8090"))
TENANT_PORT = FRONT_PORT + 1
HOST_PORT = 8080
APP_HOSTS = {"a": 11, "b": 12}
REDIS_HOSTS = {"r1": 21, "r2": 22}
SENTINELS = {"s1": 31, "s2": 32, "s3": 33}
FRONT = f"http://127.0.0.1:{FRONT_PORT}"
TENANT = f"http://127.0.0.1:{TENANT_PORT}"
# The dev tenant's people, as deploy/dev-tenant/tenant.json lists them: {"skippy": (email, password)}.
USERS = {user["email"].split("@")[0]: (user["email"], user["password"])
         for user in json.load(open(os.path.join(HERE, "deploy/dev-tenant/tenant.json")))["users"]}


def ns(host):
    return "mdc-" + host


def address(host):
    return f"{NET}.{({**APP_HOSTS, **REDIS_HOSTS, **SENTINELS})[host]}"


def run(*argv, check=True):
    return subprocess.run(argv, check=check, capture_output=True, text=True)


def host_url(host):
    return f"http://{address(host)}:{HOST_PORT}"


class Cluster:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="metadata-demo-cluster.")
        os.chmod(self.dir, 0o711)  # nginx's workers (www-data) reach the hosts' folders below
        self.processes = {}  # name -> (argv, namespace, env, Popen)
        self.bin = None

    # Network

    def make_network(self):
        if BRIDGE in run("ip", "-o", "link", "show").stdout:
            sys.exit(f"cluster: {BRIDGE} exists: another cluster runs, or one was killed (scripts/cluster down)")
        run("ip", "link", "add", BRIDGE, "type", "bridge")
        run("ip", "addr", "add", f"{NET}.1/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for host in [*APP_HOSTS, *REDIS_HOSTS, *SENTINELS]:
            run("ip", "netns", "add", ns(host))
            veth = "mdc-" + host + "-h"
            run("ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns(host))
            run("ip", "link", "set", veth, "master", BRIDGE, "up")
            run("ip", "-n", ns(host), "addr", "add", f"{address(host)}/24", "dev", "eth0")
            run("ip", "-n", ns(host), "link", "set", "eth0", "up")
            run("ip", "-n", ns(host), "link", "set", "lo", "up")

    # Processes

    def spawn(self, name, argv, namespace=None, env=None):
        full = (["ip", "netns", "exec", ns(namespace)] if namespace else []) + argv
        log = open(os.path.join(self.dir, name + ".log"), "ab")
        process = subprocess.Popen(full, stdout=log, stderr=subprocess.STDOUT, env=env or os.environ.copy(),
                                   start_new_session=True, cwd=HERE)
        self.processes[name] = (argv, namespace, env, process)
        return process

    def respawn(self, name):
        argv, namespace, env, _ = self.processes[name]
        return self.spawn(name, argv, namespace, env)

    def pid(self, name):
        return self.processes[name][3].pid

    def dev_env(self, run_dir):
        """The environment scripts/dev-env.sh gives a worker or tenant of `run_dir`."""
        script = f'source "{HERE}/scripts/dev-env.sh"; env -0'
        env = dict(os.environ, RUN_DIR=run_dir, APP_PORT=str(FRONT_PORT), DEV_TENANT_PORT=str(TENANT_PORT), here=HERE)
        out = subprocess.run(["bash", "-c", script], env=env, check=True, capture_output=True).stdout
        return dict(item.split("=", 1) for item in out.decode().split("\0") if "=" in item)

    def build(self):
        for product in ["metadata-demo", "dev-tenant"]:
            subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", product],
                           check=True, cwd=HERE, stdout=subprocess.DEVNULL)
        self.bin = run("swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path").stdout.strip()

    def start_redis(self):
        for host in REDIS_HOSTS:
            self.spawn("redis-" + host, self.redis_argv(host, replica_of="r1" if host != "r1" else None), host)
        for host in SENTINELS:
            config = os.path.join(self.dir, f"sentinel-{host}.conf")  # the sentinel rewrites it
            with open(config, "w") as f:
                f.write(f"port 26379\nbind {address(host)}\nprotected-mode no\ndir {self.dir}\n"
                        f"sentinel monitor ledger {address('r1')} 6379 2\n"
                        "sentinel down-after-milliseconds ledger 1000\n"
                        "sentinel failover-timeout ledger 5000\nsentinel parallel-syncs ledger 1\n")
            self.spawn("sentinel-" + host, ["/usr/bin/redis-sentinel", config, "--loglevel", "notice"], host)

    def redis_argv(self, host, replica_of=None):
        argv = ["/usr/bin/redis-server", "--port", "6379", "--bind", address(host), "--protected-mode", "no",
                "--save", "", "--appendonly", "no", "--dir", self.dir, "--dbfilename", f"dump-{host}.rdb"]
        return argv + (["--replicaof", address(replica_of), "6379"] if replica_of else [])

    def start_front(self):
        public = os.path.join(self.dir, "a", "public")  # scripts/nginx-conf copied it where www-data reads
        user = "user www-data www-data;" if os.getuid() == 0 else ""
        upstream = "\n".join(f"        server {address(h)}:{HOST_PORT} max_fails=0;" for h in APP_HOSTS)
        config = f"""{user}
worker_processes 2;
pid {self.dir}/front.pid;
error_log {self.dir}/front-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    large_client_header_buffers 4 16k;
    client_body_temp_path {self.dir}/front-body;
    proxy_temp_path {self.dir}/front-proxy;
    fastcgi_temp_path {self.dir}/front-fastcgi;
    uwsgi_temp_path {self.dir}/front-uwsgi;
    scgi_temp_path {self.dir}/front-scgi;
    upstream app_hosts {{
{upstream}
        keepalive 128;
    }}
    # The front balancer: a GET that fails on one host is tried on the other.
    server {{
        listen 127.0.0.1:{FRONT_PORT};
        location / {{
            proxy_pass http://app_hosts;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_next_upstream error timeout http_502 http_503 http_504;
            proxy_connect_timeout 2s;
            proxy_buffer_size 32k;
            proxy_buffers 16 16k;
        }}
    }}
    # The dev tenant, for browsers (loopback) and for the hosts (the bridge).
    server {{
        listen 127.0.0.1:{TENANT_PORT};
        listen {NET}.1:{TENANT_PORT};
        location /static/ {{ alias {public}/dev-tenant/; }}
        location / {{
            include /etc/nginx/fastcgi_params;
            fastcgi_pass unix:{self.dir}/dev-tenant.sock;
        }}
    }}
}}
"""
        path = os.path.join(self.dir, "front.conf")
        with open(path, "w") as f:
            f.write(config)
        run("nginx", "-t", "-q", "-p", self.dir, "-c", path)
        self.spawn("front-nginx", ["nginx", "-p", self.dir, "-c", path, "-g", "daemon off;"])

    def start_tenant(self):
        env = self.dev_env(self.dir)
        env.update(FASTCGI_LISTEN=f"unix:{self.dir}/dev-tenant.sock", DEV_TENANT_USER_RATE_PER_MINUTE="100000000")
        self.spawn("dev-tenant", [f"{self.bin}/dev-tenant"], env=env)

    def start_app_host(self, host):
        run_dir = os.path.join(self.dir, host)
        os.mkdir(run_dir)
        conf = subprocess.run(
            [f"{HERE}/scripts/nginx-conf"], check=True, capture_output=True, text=True,
            env=dict(os.environ, RUN_DIR=run_dir, APP_PORT=str(HOST_PORT), DEV_TENANT_PORT=str(TENANT_PORT),
                     APP_LISTEN_EXTRA=f"{address(host)}:{HOST_PORT}", TENANT_PROXY=f"http://{NET}.1:{TENANT_PORT}",
                     WORKER_PROCESSES="2", NGINX_WORKERS="1")).stdout
        with open(os.path.join(run_dir, "nginx.conf"), "w") as f:
            f.write(conf)
        self.spawn(f"{host}-nginx", ["nginx", "-p", run_dir, "-c", f"{run_dir}/nginx.conf", "-g", "daemon off;"],
                   host)
        env = self.dev_env(run_dir)
        sentinels = ",".join(f"{address(s)}:26379" for s in SENTINELS)
        env.update(AUTH0_SECRET_FILE=os.path.join(self.dir, "cookie-secret"), LOG_LEVEL="info",
                   SESSION_STORE=f"redis-sentinel://{sentinels}/ledger/0")
        for n in (1, 2):
            socket = f"{run_dir}/metadata-demo.sock" if n == 1 else f"{run_dir}/metadata-demo-{n}.sock"
            self.spawn(f"{host}-worker-{n}", ["python3", f"{HERE}/scripts/fastcgi-supervisor", "--name",
                                              f"worker-{n}", "--socket", socket, "--", f"{self.bin}/metadata-demo"],
                       host, env)

    def start(self):
        self.build()
        self.make_network()
        # One cookie secret for every host (a cookie made on one opens on the other).
        with open(os.path.join(self.dir, "cookie-secret"), "w") as f:
            f.write(os.urandom(32).hex())
        os.chmod(os.path.join(self.dir, "cookie-secret"), 0o600)
        self.start_redis()
        self.start_tenant()
        # The replica's first copy (Redis waits 5 s to batch replicas): a chaos run that killed
        # the primary before it would fail over to an empty replica, which is another test.
        if not wait_until(lambda: "master_link_status:up" in run(
                "redis-cli", "-h", address("r2"), "-p", "6379", "INFO", "replication", check=False).stdout, 30):
            raise SystemExit(f"cluster: the Redis replica did not sync; logs in {self.dir}")
        # Sentinels learn of the replica and of each other within seconds; one that fails over
        # before knowing a replica gives up ("no good slave") and waits twice failover-timeout.
        if not wait_until(lambda: all(sentinel_knows_everyone(s) for s in SENTINELS), 30):
            raise SystemExit(f"cluster: the sentinels did not find the replica and each other; logs in {self.dir}")
        for host in APP_HOSTS:
            self.start_app_host(host)
        self.start_front()
        for url in [TENANT + "/.well-known/openid-configuration"] + [host_url(h) + "/healthz" for h in APP_HOSTS]:
            if not wait_until(lambda: status_of(url) == 200, 60):
                raise SystemExit(f"cluster: {url} did not answer; logs in {self.dir}")
        if not wait_until(lambda: status_of(FRONT + "/healthz") == 200, 10):
            raise SystemExit(f"cluster: the front did not answer; logs in {self.dir}")

    def stop(self, keep):
        for _, _, _, process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.time() + 10
        for _, _, _, process in self.processes.values():
            try:
                process.wait(max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        remove_network()
        if keep:
            print(f"logs kept in {self.dir}")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    # What the chaos run reads

    def worker_pids(self, host):
        pids = []
        for n in (1, 2):
            pids += [int(p) for p in run("pgrep", "-P", str(self.pid(f"{host}-worker-{n}")), check=False).stdout.split()]
        return pids

    def metric(self, host, name):
        """The sum over the host's two workers of a metric (asked on the host's own loopback)."""
        total = 0.0
        for n in (1, 2):
            out = run("ip", "netns", "exec", ns(host), "curl", "-s", "-m", "2",
                      f"http://127.0.0.1:{HOST_PORT}/metrics/{n}", check=False).stdout
            match = re.search(rf"^{name} (\S+)$", out, re.M)
            total += float(match.group(1)) if match else 0
        return total

    def log(self, name):
        with open(os.path.join(self.dir, name + ".log"), errors="replace") as f:
            return f.read()


def remove_network():
    for host in [*APP_HOSTS, *REDIS_HOSTS, *SENTINELS]:
        if run("ip", "netns", "pids", ns(host), check=False).returncode == 0:
            for pid in run("ip", "netns", "pids", ns(host), check=False).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            run("ip", "netns", "del", ns(host), check=False)
    run("ip", "link", "del", BRIDGE, check=False)


def wait_until(condition, seconds, step=0.05):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def status_of(url, cookie=None, method="GET", body=None, headers=None):
    """The status of one request, or 0 when it failed outright."""
    parts = urllib.parse.urlsplit(url)
    try:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
        sent = dict(headers or {})
        if cookie:
            sent["Cookie"] = cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, (parts.path or "/") + ("?" + parts.query if parts.query else ""), body, sent)
        status = connection.getresponse().status
        connection.close()
        return status
    except OSError:
        return 0


class Person:
    """One login through the front: its cookies (the tenant's too, to log out there)."""

    def __init__(self, user):
        self.jar = demo_login.login(FRONT, *USERS[user], keep_tenant=True)
        app_only = {k: v for k, v in self.jar.items() if not k[0].startswith("devtenant")}
        self.cookie = demo_login.cookie_header(app_only, "/")

    def logged_in_on(self, base):
        return status_of(base + "/me", self.cookie) == 200

    def log_out_on(self, base):
        """Logs out through one host (its CSRF token read from the page), as the person's browser."""
        status, _, page = demo_login.request(base + "/", cookies=dict(self.jar))
        token = re.search(r'name="csrf" value="([^"]*)"', page).group(1)
        form = urllib.parse.urlencode({"csrf": token})
        return status_of(base + "/logout", self.cookie, "POST", form, {"Origin": FRONT})

    def log_out_at_tenant(self):
        """Logs out at the tenant only (as from another of its apps): it sends a back-channel logout."""
        tenant = {k: v for k, v in self.jar.items() if k[0].startswith("devtenant")}
        return status_of(TENANT + "/v2/logout?client_id=metadata-demo-dev", demo_login.cookie_header(tenant, "/"))


def since(start):
    return f"{time.time() - start:.2f} s"


def sentinel_primary():
    out = run("redis-cli", "-h", address("s1"), "-p", "26379", "SENTINEL", "get-master-addr-by-name", "ledger",
              check=False).stdout.split()
    return out[0] if out else None


def sentinel_knows_everyone(sentinel):
    """True when `sentinel` knows the primary's replica and the two other sentinels."""
    fields = run("redis-cli", "-h", address(sentinel), "-p", "26379", "SENTINEL", "master", "ledger",
                 check=False).stdout.split()
    facts = dict(zip(fields[::2], fields[1::2]))
    return facts.get("num-slaves") == "1" and facts.get("num-other-sentinels") == "2"


def role(host):
    out = run("redis-cli", "-h", address(host), "-p", "6379", "ROLE", check=False).stdout.split()
    return out[0] if out else "down"


