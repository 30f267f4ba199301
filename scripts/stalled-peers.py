"""Opens COUNT connections to a worker's unix socket that each send half a FastCGI record header and
then nothing, and, while they stay, times GETs of URL (through nginx). Prints the median and the
largest time in milliseconds, and how many answers were not 200.
Usage: stalled-peers.py SOCKET COUNT URL [GETS]"""
import socket
import statistics
import sys
import time
import urllib.request

path, count, url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
gets = int(sys.argv[4]) if len(sys.argv) > 4 else 50
peers = []
for _ in range(count):
    peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    peer.connect(path)
    peer.sendall(bytes([1, 1, 0, 1]))  # version, BEGIN_REQUEST, request id: half a header
    peers.append(peer)
times, bad = [], 0
for _ in range(gets):
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            answer.read()
            bad += answer.status != 200
    except Exception:
        bad += 1
    times.append((time.monotonic() - started) * 1000)
print(f"median {statistics.median(times):.1f} ms, largest {max(times):.1f} ms, not 200: {bad}")
for peer in peers:
    peer.close()
