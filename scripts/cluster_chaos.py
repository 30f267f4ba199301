"""`make chaos`: on the cluster of scripts/cluster, logged-in page views through the front at 64
connections for CHAOS_SECONDS (60), and meanwhile, on this timeline (seconds into the load):

   3  the Redis primary killed (SIGKILL); while it is down, person L1 logs out on host a and
      person L2's tenant session is ended at the tenant (a back-channel logout); after Sentinel's
      failover both copied cookies are replayed on host b (and a)
  33  the old primary started again, empty: Sentinel makes it a replica of the new primary
  36  host a's two workers killed (SIGKILL; their supervisors start them again)
  38  host b cut off from every Redis and sentinel address for 20 s (blackhole routes: packets
      dropped, new connections refused at once); person L3 logs out on host b meanwhile
after the load: Redis emptied (FLUSHALL on the primary, which its replica follows), then every
worker restarted in turn: logouts made before (L0, before the load) and during it must hold.

Prints: failed page views, logged-in people logged out who did not ask, failover and first-write
times, how long each logout took to reach the other host once the store answered, logouts
undone, and the workers' memory before and after. Exit status 1 when a goal is missed.
"""
import os
import re
import signal
import subprocess
import threading
import time

from cluster_hosts import APP_HOSTS, HERE, REDIS_HOSTS, SENTINELS, FRONT, Person, address, host_url, ns, run, \
    role, sentinel_primary, status_of, wait_until

KILL_AT, RESTORE_AT, WORKERS_KILLED_AT, PARTITION_AT, PARTITION_SECONDS = 3, 33, 36, 38, 20


class Timeline:
    """Sleeps until a moment of the load, counted from its start."""

    def __init__(self):
        self.start = time.time()

    def at(self, second):
        time.sleep(max(0.0, self.start + second - time.time()))


class Prober(threading.Thread):
    """Asks /me through the front ten times a second for people who did not log out: any answer
    but 200 is either a failed page view (0, 5xx) or a person logged out who did not ask (401)."""

    def __init__(self, people):
        super().__init__(daemon=True)
        self.people, self.asked, self.failed, self.logged_out, self.running = people, 0, 0, 0, True

    def run(self):
        while self.running:
            for person in self.people:
                status = status_of(FRONT + "/me", person.cookie)
                self.asked += 1
                if status == 401:
                    self.logged_out += 1
                elif status != 200:
                    self.failed += 1
            time.sleep(0.1)


def refused_everywhere(person):
    """True when every application host refuses the person's copied cookie (asked twice each, so
    both of its workers answer)."""
    return all(status_of(host_url(h) + "/me", person.cookie) == 401 for h in APP_HOSTS for _ in range(2))


def seconds_until(condition, limit):
    """Seconds until `condition` holds (polled every 50 ms), or None after `limit`."""
    start = time.time()
    return time.time() - start if wait_until(condition, limit) else None


def rss_kb(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
        except (OSError, AttributeError):
            pass
    return total


def fmt(seconds):
    return "not within the limit" if seconds is None else f"{seconds:.2f} s"


def run_chaos(cluster, seconds):
    figures, goals = [], []

    def report(name, value, goal_met=True):
        figures.append((name, value))
        goals.append((name, goal_met))

    staying = [Person("skippy"), Person("randomuser")]
    l0, l1, l2, l3 = Person("skippy"), Person("skippy"), Person("randomuser"), Person("randomuser")
    l0.log_out_on(host_url("a"))  # a logout from before the chaos, written while all was well
    memory_before = {h: rss_kb(cluster.worker_pids(h)) for h in APP_HOSTS}

    wrk_out = os.path.join(cluster.dir, "wrk.out")
    with open(wrk_out, "w") as out:
        load = subprocess.Popen(["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", "-H",
                                 "Cookie: " + staying[0].cookie, FRONT + "/"], stdout=out, stderr=subprocess.STDOUT)
    prober = Prober(staying)
    prober.start()
    timeline = Timeline()

    # 1. The primary dies; two logouts while no primary answers; the failover.
    timeline.at(KILL_AT)
    primary = next(h for h in REDIS_HOSTS if address(h) == sentinel_primary())
    os.kill(cluster.pid("redis-" + primary), signal.SIGKILL)
    killed_at = time.time()
    l1_status = l1.log_out_on(host_url("a"))
    l2_status = l2.log_out_at_tenant()
    report("logout on host a during the outage (HTTP status)", l1_status, l1_status == 303)
    report("tenant logout during the outage (HTTP status)", l2_status, l2_status == 302)
    failover = seconds_until(lambda: sentinel_primary() not in (None, address(primary)), 30)
    failed_over_at = time.time()
    report("Sentinel named a new primary after the kill", fmt(None if failover is None else failed_over_at - killed_at),
           failover is not None)
    first_write = seconds_until(lambda: sum(cluster.metric(h, "metadata_demo_session_ledger_pending_entries")
                                            for h in APP_HOSTS) == 0, 20)
    report("first ledger write accepted after the failover (pending logouts written)", fmt(first_write),
           first_write is not None)
    reached = seconds_until(lambda: refused_everywhere(l1) and refused_everywhere(l2), 20)
    total = None if reached is None else time.time() - failed_over_at
    report("both outage logouts refused on every host, after the failover", fmt(total),
           total is not None and total <= (first_write or 0) + 1)

    # 2. The old primary returns, empty, and becomes a replica.
    timeline.at(RESTORE_AT)
    cluster.respawn("redis-" + primary)
    as_replica = seconds_until(lambda: role(primary) == "slave", 20)
    report(f"old primary ({address(primary)}) back as a replica after", fmt(as_replica), as_replica is not None)

    # 3. Host a's workers killed.
    timeline.at(WORKERS_KILLED_AT)
    for pid in cluster.worker_pids("a"):
        os.kill(pid, signal.SIGKILL)

    # 4. Host b partitioned from Redis and the sentinels; a logout there meanwhile.
    timeline.at(PARTITION_AT)
    cut = [address(h) for h in [*REDIS_HOSTS, *SENTINELS]]
    for target in cut:
        run("ip", "-n", ns("b"), "route", "add", "blackhole", target + "/32")
    time.sleep(1)
    l3_status = l3.log_out_on(host_url("b"))
    report("logout on host b while it was cut off (HTTP status)", l3_status, l3_status == 303)
    timeline.at(PARTITION_AT + PARTITION_SECONDS)
    for target in cut:
        run("ip", "-n", ns("b"), "route", "del", "blackhole", target + "/32", check=False)
    reached = seconds_until(lambda: status_of(host_url("a") + "/me", l3.cookie) == 401
                            and status_of(host_url("a") + "/me", l3.cookie) == 401, 20)
    report("host b's logout refused on host a after the partition healed", fmt(reached),
           reached is not None and reached <= 1.5)

    load.wait(seconds + 60)
    prober.running = False
    prober.join()
    with open(wrk_out) as out:
        wrk = subprocess.run(["python3", os.path.join(HERE, "scripts/wrk-parse.py"), "page views"], stdin=out,
                             capture_output=True, text=True, check=True).stdout
    _, rate, _, p99, bad, errors = wrk.strip().split("\t")
    served = int(float(rate) * seconds)
    report(f"logged-in page views at 64 connections for {seconds} s (about {served} at {rate}/s, p99 {p99} ms): failed",
           int(bad) + int(errors), int(bad) + int(errors) == 0)
    report(f"people logged out who did not ask ({prober.asked} checks of /me)", prober.logged_out,
           prober.logged_out == 0)
    report("failed /me checks", prober.failed, prober.failed == 0)
    memory_after = {h: rss_kb(cluster.worker_pids(h)) for h in APP_HOSTS}

    # 5. Redis loses everything; every worker restarts, one at a time.
    primary = next(h for h in REDIS_HOSTS if address(h) == sentinel_primary())
    run("redis-cli", "-h", address(primary), "-p", "6379", "FLUSHALL")
    rewritten = seconds_until(lambda: sum(cluster.metric(h, "metadata_demo_session_ledger_store_resets_total")
                                          for h in APP_HOSTS) >= 4, 10)
    report("every worker wrote its ended sessions back into the emptied Redis after", fmt(rewritten),
           rewritten is not None)
    for host in APP_HOSTS:
        for n in (1, 2):
            os.kill(cluster.pid(f"{host}-worker-{n}"), signal.SIGHUP)  # a graceful reload: a new worker
            time.sleep(2)
    undone = sum(not refused_everywhere(person) for person in (l0, l1, l2, l3))
    report("logouts undone after Redis came back empty and every worker restarted (of 4)", undone, undone == 0)
    still = sum(person.logged_in_on(FRONT) for person in staying)
    report("people who did not log out, still logged in at the end (of 2)", still, still == 2)

    for host in APP_HOSTS:
        figures.append((f"host {host} workers' memory (RSS) before and after the load",
                        f"{memory_before[host] // 1024} MB -> {memory_after[host] // 1024} MB"
                        + (" (its workers were killed and started again)" if host == "a" else "")))
    width = max(len(name) for name, _ in figures)
    print("== chaos on the cluster")
    for name, value in figures:
        print(f"{name:<{width}}  {value}")
    missed = [name for name, met in goals if not met]
    for name in missed:
        print(f"goal missed: {name}")
    return 1 if missed else 0
