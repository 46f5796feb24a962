#!/usr/bin/env python3
"""A scripted HTTP server on loopback for the fetch tests and benchmark (issue 6).

It serves the files of --root (default Fixtures/images) with the behaviour each test needs,
and records every request so that a test can check what the client sent and what it got.
It listens on 127.0.0.1 only, on --port (default 0: any free port), and prints
"PORT <n>" as its first line on standard output once it accepts connections.

Paths (NAME is a file of --root):
  /images/NAME                 the file, typed by its extension, with ETag and Last-Modified;
                               ?max-age=N adds Cache-Control: max-age=N, ?cache=no-store or
                               ?cache=no-cache that directive, ?expires=N an Expires N s ahead
  /flaky/KEY/NAME              500 on the first request for KEY, then the file
  /busy/KEY/NAME?after=S       429 with Retry-After: S on the first request for KEY, then the file
  /html-as-jpeg                an HTML error page served as image/jpeg
  /samples/NAME                a file of Fixtures/format-2.0 (WebP, GIF, AVIF, HEIC), typed by its extension
  /typed/TYPE/NAME             the file served as Content-Type TYPE ('_' for '/', e.g. text_html)
  /bytes/TYPE/HEX              the bytes HEX (hexadecimal, written by the test) served as
                               Content-Type TYPE ('_' for '/')
  /redirect/N/NAME             a chain of N redirects (302) ending at /images/NAME
  /loop/a, /loop/b             redirects to each other for ever
  /drip/N                      N bytes of an image-like body, one per second
  /oversize/MB                 MB megabytes with no Content-Length (closed-delimited)
  /status/CODE                 an empty response with that status
  /__log                       JSON: every request so far (method, path, headers of note,
                               status, body bytes sent, arrival on the monotonic clock)
  /__reset                     forgets the log and the per-KEY state

--delay-ms D delays every response by D ms (a remote server's latency, for the benchmark).
"""
import argparse
import email.utils
import hashlib
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png", ".webp": "image/webp", ".gif": "image/gif",
         ".avif": "image/avif", ".heic": "image/heic"}
# Format 2.0's samples, beside the root's images: /samples/NAME.
SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures", "format-2.0")


class State:
    def __init__(self, root, delay):
        self.root = root
        self.delay = delay
        self.lock = threading.Lock()
        self.log = []
        self.seen_keys = set()

    def first_time(self, key):
        with self.lock:
            if key in self.seen_keys:
                return False
            self.seen_keys.add(key)
            return True


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "gallery-test-server"

    def log_message(self, *args):
        pass

    # -- recording ---------------------------------------------------------------------

    def record(self, status, sent):
        entry = {
            "method": self.command,
            "path": self.path,
            "ifNoneMatch": self.headers.get("If-None-Match"),
            "ifModifiedSince": self.headers.get("If-Modified-Since"),
            "userAgent": self.headers.get("User-Agent"),
            "status": status,
            "bodyBytes": sent,
            "arrived": self.arrived,
        }
        with self.server.state.lock:
            self.server.state.log.append(entry)

    def reply(self, status, body=b"", headers=(), head_only=False):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not any(name.lower() == "content-length" for name, _ in headers):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        sent = 0
        if body and not head_only:
            self.wfile.write(body)
            sent = len(body)
        self.record(status, sent)

    # -- serving files -------------------------------------------------------------------

    def file(self, name, folder=None):
        path = os.path.join(folder or self.server.state.root, os.path.basename(name))
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as handle:
            return handle.read(), os.path.getmtime(path)

    def serve_file(self, name, query, content_type=None, folder=None):
        found = self.file(name, folder)
        if found is None:
            return self.reply(404, b"not found\n", [("Content-Type", "text/plain")])
        data, mtime = found
        etag = '"%s"' % hashlib.sha256(data).hexdigest()[:32]
        modified = email.utils.formatdate(mtime, usegmt=True)
        headers = [("ETag", etag), ("Last-Modified", modified),
                   ("Content-Type", content_type or TYPES.get(os.path.splitext(name)[1].lower(),
                                                              "application/octet-stream"))]
        if "max-age" in query:
            headers.append(("Cache-Control", "max-age=%d" % int(query["max-age"][0])))
        if "cache" in query:
            headers.append(("Cache-Control", query["cache"][0]))
        if "expires" in query:
            headers.append(("Expires", email.utils.formatdate(time.time() + int(query["expires"][0]), usegmt=True)))
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        not_modified = (inm is not None and etag in [tag.strip() for tag in inm.split(",")]) or (
            inm is None and ims is not None and ims == modified)
        if not_modified:
            return self.reply(304, b"", [h for h in headers if h[0] != "Content-Type"])
        return self.reply(200, data, headers, head_only=self.command == "HEAD")

    # -- the scripts -----------------------------------------------------------------------

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        self.arrived = time.monotonic()
        state = self.server.state
        if state.delay:
            time.sleep(state.delay / 1000)
        url = urlparse(self.path)
        query = parse_qs(url.query)
        parts = [p for p in url.path.split("/") if p]
        try:
            self.route(parts, query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def route(self, parts, query):
        state = self.server.state
        head = parts[0] if parts else ""
        if head == "__log":
            with state.lock:
                body = json.dumps(state.log).encode()
            return self.reply(200, body, [("Content-Type", "application/json")])
        if head == "__reset":
            with state.lock:
                state.log.clear()
                state.seen_keys.clear()
            return self.reply(204)
        if head == "images" and len(parts) == 2:
            return self.serve_file(parts[1], query)
        if head == "flaky" and len(parts) == 3:
            if state.first_time("flaky/" + parts[1]):
                return self.reply(500, b"try again\n", [("Content-Type", "text/plain")])
            return self.serve_file(parts[2], query)
        if head == "busy" and len(parts) == 3:
            if state.first_time("busy/" + parts[1]):
                after = query.get("after", ["1"])[0]
                return self.reply(429, b"slow down\n", [("Content-Type", "text/plain"), ("Retry-After", after)])
            return self.serve_file(parts[2], query)
        if head == "html-as-jpeg":
            page = b"<!doctype html><title>Not found</title><h1>404 Not Found</h1>\n"
            return self.reply(200, page, [("Content-Type", "image/jpeg")])
        if head == "samples" and len(parts) == 2:
            return self.serve_file(parts[1], query, folder=SAMPLES)
        if head == "typed" and len(parts) == 3:
            return self.serve_file(parts[2], query, content_type=parts[1].replace("_", "/"))
        if head == "bytes" and len(parts) == 3:
            return self.reply(200, bytes.fromhex(parts[2]), [("Content-Type", parts[1].replace("_", "/"))])
        if head == "redirect" and len(parts) == 3:
            left = int(parts[1])
            target = "/images/%s" % parts[2] if left <= 1 else "/redirect/%d/%s" % (left - 1, parts[2])
            return self.reply(302, b"", [("Location", target)])
        if head == "loop" and len(parts) == 2:
            return self.reply(302, b"", [("Location", "/loop/b" if parts[1] == "a" else "/loop/a")])
        if head == "drip" and len(parts) == 2:
            return self.drip(int(parts[1]))
        if head == "oversize" and len(parts) == 2:
            return self.oversize(int(parts[1]))
        if head == "status" and len(parts) == 2:
            return self.reply(int(parts[1]))
        return self.reply(404, b"no such script\n", [("Content-Type", "text/plain")])

    def drip(self, count):
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(count))
        self.end_headers()
        sent = 0
        try:
            for index in range(count):
                self.wfile.write(b"\xff" if index == 0 else b"\xd8" if index == 1 else b"\x00")
                self.wfile.flush()
                sent += 1
                time.sleep(1)
        finally:
            self.record(200, sent)

    def oversize(self, megabytes):
        # Close-delimited: the client cannot know the size in advance.
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"\xff\xd8\xff\xe0" + b"\x00" * 65532
        sent = 0
        try:
            while sent < megabytes * 1_000_000:
                self.wfile.write(chunk)
                sent += len(chunk)
        finally:
            self.record(200, sent)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(here, "..", "..", "Fixtures", "images"))
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay-ms", type=int, default=0)
    args = parser.parse_args()
    server = Server(("127.0.0.1", args.port), Handler)
    server.state = State(os.path.abspath(args.root), args.delay_ms)
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
