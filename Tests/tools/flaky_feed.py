"""An HTTP proxy for the tests, on 127.0.0.1 only, whose first answer for a game's feed is 404.

    flaky_feed.py UPSTREAM_BASE PATTERN [impossible]

Prints its base URL (http://127.0.0.1:PORT/ plus the upstream base's path) on its first line.
Every GET goes to the upstream and its answer comes back as it is, except the first request
for each distinct path that contains PATTERN ("play-by-play", "summary"): that one is
answered 404, as a CDN edge sometimes answers for a game the schedule lists. Each 404 is
logged on stderr. With "impossible", every later answer for such a path is an ESPN summary
whose game is in its 2^62nd period and whose last play's clock reads NaN.
"""
import json
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

upstream = sys.argv[1]
pattern = sys.argv[2]
impossible = len(sys.argv) > 3 and sys.argv[3] == "impossible"
parsed = urllib.parse.urlsplit(upstream)
origin = f"{parsed.scheme}://{parsed.netloc}"
refused = set()
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if pattern in path:
            with lock:
                first = path not in refused
                refused.add(path)
            if first:
                sys.stderr.write(f"404 for {self.path}\n")
                sys.stderr.flush()
                self.reply(404, b'{"message":"Not Found"}', {"Content-Type": "application/json"})
                return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "accept-encoding")}
        request = urllib.request.Request(origin + self.path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                body = answer.read()
                if impossible and pattern in path:
                    body = self.spoil(body)
                self.reply(answer.status, body, dict(answer.headers))
        except urllib.error.HTTPError as error:
            self.reply(error.code, error.read(), dict(error.headers))
        except OSError:
            self.reply(502, b"", {})

    @staticmethod
    def spoil(body):
        document = json.loads(body)
        for competition in document.get("header", {}).get("competitions", []):
            competition.setdefault("status", {})["period"] = 2**62
        plays = document.get("plays") or []
        if plays:
            plays[-1]["clock"] = {"displayValue": "NaN"}
        return json.dumps(document).encode()

    def reply(self, status, body, headers):
        self.send_response(status)
        for key, value in headers.items():
            if key.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}{parsed.path}", flush=True)
server.serve_forever()
