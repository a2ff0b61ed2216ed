"""Times plain requests to a feed server while slow and idle clients hold connections.

    slow_clients.py PORT [SLOW] [IDLE] [REQUESTS]

First REQUESTS plain requests (a new connection each, GET /calendars/TOR.ics) with nobody
else connected; then SLOW connections that send their headers a byte every second and IDLE
kept-alive connections after one request each, and the same REQUESTS plain requests while
they hold on. Prints the median, p90 and slowest of each, in seconds. A plain request that is
answered 503 with Retry-After waits that long and asks again, as calendar apps do; the wait is
part of its time.
"""
import socket
import statistics
import sys
import threading
import time

port = int(sys.argv[1])
slow_count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
idle_count = int(sys.argv[3]) if len(sys.argv) > 3 else 100
requests = int(sys.argv[4]) if len(sys.argv) > 4 else 20


def plain():
    # As a calendar app asks: a 503 with Retry-After (the server turning a connection away
    # while every other one is too new to close) is waited out and asked again, the wait
    # counted in the time.
    start = time.monotonic()
    for _ in range(3):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /calendars/TOR.ics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
        s.close()
        if not answer.startswith(b"HTTP/1.1 503"):
            break
        wait = next((line.split(b":", 1)[1].strip() for line in answer.split(b"\r\n") if line.lower().startswith(b"retry-after:")), b"")
        assert wait.isdigit(), answer[:200]
        time.sleep(int(wait))
    assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
    return time.monotonic() - start


def report(label, times):
    times = sorted(times)
    p90 = times[int(len(times) * 0.9) - 1]
    print(f"{label}: median {statistics.median(times):.3f} s, p90 {p90:.3f} s, slowest {times[-1]:.3f} s")


report("alone", [plain() for _ in range(requests)])

held = []
stop = threading.Event()
for _ in range(slow_count):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.send(b"GET /calendars/TOR.ics HTTP/1.1\r\n")
    held.append(s)
for _ in range(idle_count):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.send(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    s.recv(65536)
    held.append(s)


def dribble():
    # A header byte a second on every slow connection still open, and new ones to replace
    # those the server closed: the attack keeps up for as long as it is measured.
    while not stop.is_set():
        for i, s in enumerate(held[:slow_count]):
            try:
                s.send(b"X")
            except OSError:
                try:
                    held[i] = socket.create_connection(("127.0.0.1", port), timeout=30)
                    held[i].send(b"GET /calendars/TOR.ics HTTP/1.1\r\n")
                except OSError:
                    pass
        stop.wait(1)


thread = threading.Thread(target=dribble, daemon=True)
thread.start()
time.sleep(2)
report(f"with {slow_count} slow and {idle_count} idle clients", [plain() for _ in range(requests)])
stop.set()
