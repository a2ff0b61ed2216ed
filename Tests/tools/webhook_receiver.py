"""A webhook receiver for the tests, on 127.0.0.1 only.

Verifies each request's Standard Webhooks signature with the `standardwebhooks` package (an
independent implementation; the tests' own is in Swift), and appends one JSON line per request
to the log file: id, timestamp, whether the signature held, the status it answered, the body.

    webhook_receiver.py LOG SECRET [--fail-first N] [--status CODE] [--control FILE]

Prints the base URL on its first line. --fail-first answers 503 to the first N requests;
--status answers CODE to every request; --control names a file whose content (a status code),
when present, is the answer instead: a test changes the receiver's mood by writing it.
A webhook-id seen before is acknowledged (200) and logged with "duplicate": true.
"""
import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

parser = argparse.ArgumentParser()
parser.add_argument("log")
parser.add_argument("secret")
parser.add_argument("--fail-first", type=int, default=0)
parser.add_argument("--status", type=int, default=200)
parser.add_argument("--control")
args = parser.parse_args()

webhook = Webhook(args.secret)
lock = threading.Lock()
seen = set()
count = 0


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass

    def do_POST(self):
        global count
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            webhook.verify(body, headers)
            verified = True
        except WebhookVerificationError:
            verified = False
        with lock:
            count += 1
            status = args.status
            if count <= args.fail_first:
                status = 503
            if args.control and os.path.exists(args.control):
                text = open(args.control).read().strip()
                if text:
                    status = int(text)
            event_id = headers.get("webhook-id")
            duplicate = status < 300 and event_id in seen
            if status < 300:
                seen.add(event_id)
            entry = {
                "id": event_id,
                "timestamp": headers.get("webhook-timestamp"),
                "verified": verified,
                "status": status,
                "duplicate": duplicate,
                "path": self.path,
                "authorization": headers.get("authorization"),
                "body": body.decode("utf-8"),
            }
            with open(args.log, "a") as log:
                log.write(json.dumps(entry) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
