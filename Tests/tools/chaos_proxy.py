"""A TCP proxy for the tests, on 127.0.0.1 only, that can make its upstream unreachable.

    chaos_proxy.py UPSTREAM_HOST:PORT CONTROL_FILE

Prints its base URL (http://127.0.0.1:PORT) on its first line. The control file holds the
mood, read continually:
  pass    connections are relayed to the upstream (the default, and when the file is absent)
  refuse  the listening socket is closed: connections are refused
  drop    connections are accepted and never answered
Leaving "pass" cuts the connections being relayed, so no kept-alive connection outlives it.
"""
import os
import select
import socket
import sys
import threading
import time

upstream_host, upstream_port = sys.argv[1].rsplit(":", 1)
upstream = (upstream_host, int(upstream_port))
control = sys.argv[2]


def mood():
    try:
        with open(control) as f:
            return f.read().strip() or "pass"
    except OSError:
        return "pass"


def listen(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(64)
    s.settimeout(0.1)
    return s


def relay(client):
    try:
        server = socket.create_connection(upstream, timeout=5)
    except OSError:
        client.close()
        return
    sockets = [client, server]
    try:
        while mood() == "pass":
            readable, _, _ = select.select(sockets, [], [], 0.1)
            for s in readable:
                data = s.recv(65536)
                if not data:
                    return
                (server if s is client else client).sendall(data)
    except OSError:
        pass
    finally:
        client.close()
        server.close()


def hold(client):
    # Accepted, never answered, until the mood changes; then cut.
    while mood() == "drop":
        time.sleep(0.1)
    client.close()


listener = listen(0)
port = listener.getsockname()[1]
print(f"http://127.0.0.1:{port}", flush=True)
while True:
    current = mood()
    if current == "refuse":
        if listener is not None:
            listener.close()
            listener = None
        time.sleep(0.1)
        continue
    if listener is None:
        listener = listen(port)
    try:
        client, _ = listener.accept()
    except socket.timeout:
        continue
    handler = relay if current == "pass" else hold
    threading.Thread(target=handler, args=(client,), daemon=True).start()
