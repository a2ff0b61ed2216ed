"""A stand-in for the NHL API that answers badly on purpose, for the tests, on 127.0.0.1 only.

    garbage_api.py MIRROR_DIR CONTROL_FILE

Serves MIRROR_DIR (a directory laid out as the API's /v1/ paths, such as
Tests/Fixtures/mirror/v1) and prints its base URL (http://127.0.0.1:PORT/v1/) on its first
line. CONTROL_FILE holds a JSON object from a path under /v1/ (or "*" for every path) to how
that path is answered, read on every request; a path not named, or no file, means "pass":

  pass          the mirror's file (404 when there is none)
  html          200 with an HTML page
  empty         200 with no body
  {} [] null    200 with that JSON
  wrong-types   200 with JSON whose fields have the wrong types
  truncated     200 with the first half of the file and a Content-Length for all of it
  bad-gzip      200, Content-Encoding: gzip, and bytes that are not gzip
  reset         the connection is closed without an answer
  hang          nothing is ever answered
  stall         headers and half the body, then nothing
  huge          200 with a 50 MB JSON body
  404 429 500   that status (429 with Retry-After: 1)
  as:PATH       the mirror's file at PATH instead (another team's schedule)
  cancelled     the file with every game's gameScheduleState set to CNCL and gameState FUT
  cancel-one    the same for the first game only
  no-games      the file with an empty list of games
  gutted        the file with only every third of its games
"""
import json
import os
import socket
import struct
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mirror = sys.argv[1]
control = sys.argv[2]


def mode_for(path):
    try:
        with open(control) as f:
            modes = json.load(f)
    except (OSError, ValueError):
        return "pass"
    return modes.get(path, modes.get("*", "pass"))


def mirror_file(path):
    full = os.path.realpath(os.path.join(mirror, path))
    if not full.startswith(os.path.realpath(mirror)) or not os.path.isfile(full):
        return None
    with open(full, "rb") as f:
        return f.read()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def half(self, body):
        """Headers for all of body, then only its first half."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if not path.startswith("/v1/"):
            return self.answer(404, b"")
        path = path[len("/v1/"):]
        mode = mode_for(path)
        if mode.startswith("as:"):
            path, mode = mode[3:], "pass"
        body = mirror_file(path)
        if mode == "pass":
            return self.answer(200, body) if body is not None else self.answer(404, b"")
        if mode == "html":
            return self.answer(200, b"<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>", "text/html")
        if mode == "empty":
            return self.answer(200, b"")
        if mode in ("{}", "[]", "null"):
            return self.answer(200, mode.encode())
        if mode == "wrong-types":
            return self.answer(200, b'{"games": "many", "standings": 7, "playerId": "x", "forwards": {}, "id": []}')
        if mode == "truncated":
            self.half(body or b"{}")
            self.close_connection = True
            return
        if mode == "bad-gzip":
            return self.answer(200, b"\x1f\x8b\x08\x00this is not gzip at all" * 4, headers=[("Content-Encoding", "gzip")])
        if mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            return
        if mode == "hang":
            time.sleep(600)
            return
        if mode == "stall":
            self.half(body or b'{"standings": []}')
            time.sleep(600)
            return
        if mode == "huge":
            chunk = b'{"padding": "' + b"x" * (1 << 20) + b'"},'
            count = 50
            total = 1 + count * len(chunk) + 2
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(total))
            self.end_headers()
            try:
                self.wfile.write(b"[")
                for _ in range(count):
                    self.wfile.write(chunk)
                self.wfile.write(b"{}]")
            except OSError:
                pass
            return
        if mode in ("404", "500"):
            return self.answer(int(mode), b'{"message": "no"}')
        if mode == "429":
            return self.answer(429, b"", headers=[("Retry-After", "1")])
        if mode in ("cancelled", "cancel-one"):
            document = json.loads(body or b"{}")
            games = document.get("games", [])
            for game in games if mode == "cancelled" else games[:1]:
                game["gameScheduleState"] = "CNCL"
                game["gameState"] = "FUT"
                for side in ("awayTeam", "homeTeam"):
                    game.get(side, {}).pop("score", None)
            return self.answer(200, json.dumps(document).encode())
        if mode in ("no-games", "gutted"):
            document = json.loads(body or b"{}")
            document["games"] = [] if mode == "no-games" else document.get("games", [])[::3]
            return self.answer(200, json.dumps(document).encode())
        self.answer(500, ("unknown mode " + mode).encode(), "text/plain")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"http://127.0.0.1:{server.server_address[1]}/v1/", flush=True)
server.serve_forever()
