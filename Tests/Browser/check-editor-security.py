#!/usr/bin/python3
"""Attacks the editor's server from outside, as another local user or a hostile web page would.

    check-editor-security.py --editor PATH_TO_imagegallery-editor --imagegallery PATH --fixtures DIR

It makes a folder with one gallery, a gallery outside it and a symbolic link from the folder to
that outside gallery, starts the editor on the folder, and checks that each of these is refused
and that no file changes on disk:
  - a request whose Host is not 127.0.0.1:PORT, [::1]:PORT or localhost:PORT (DNS rebinding);
  - a request with no cookie, and with a wrong one; a launch key used twice, or forged;
  - a state-changing request with no Origin, or another site's Origin (cross-site request forgery);
  - a gallery outside the opened folder named by its key, a path with dot-dot segments, and the
    gallery behind the symbolic link (it must not even be listed);
and that every response carries the strict content-security policy and nosniff, that images
come with their checked media type, and that the server listens on loopback only.

Prints one JSON document {ok, failures, checks} and exits 0 when every check passed, 1 when one
failed, 2 when it could not check at all.
"""

import argparse
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class Session:
    def __init__(self, port):
        self.port = port
        self.cookie = None

    def request(self, method, path, host=None, cookie=True, origin=None, body=None, family="127.0.0.1"):
        connection = http.client.HTTPConnection(family, self.port, timeout=10)
        headers = {"Host": host or f"127.0.0.1:{self.port}"}
        if cookie is True and self.cookie:
            headers["Cookie"] = self.cookie
        elif isinstance(cookie, str):
            headers["Cookie"] = cookie
        if origin:
            headers["Origin"] = origin
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), data


def listening_addresses(port):
    """The local addresses with a listening TCP socket on `port`, from /proc/net/tcp and tcp6."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, hex_port = fields[1].rsplit(":", 1)
            if int(hex_port, 16) == port and fields[3] == "0A":
                found.append(address)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--editor", required=True)
    parser.add_argument("--imagegallery", required=True)
    parser.add_argument("--fixtures", required=True)
    options = parser.parse_args()

    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": detail})

    work = Path(tempfile.mkdtemp(prefix="editor-security-"))
    editor = None
    try:
        opened = work / "opened"
        outside = work / "outside"
        opened.mkdir()
        outside.mkdir()
        inside_gallery = opened / "inside.imagegallery"
        outside_gallery = outside / "secret.imagegallery"
        for target, title in ((inside_gallery, "Inside"), (outside_gallery, "Secret")):
            subprocess.run([options.imagegallery, "create", str(target), "--title", title, options.fixtures],
                           check=True, capture_output=True)
        (opened / "link.imagegallery").symlink_to(outside_gallery)
        before = {str(p): digest(p) for p in (inside_gallery, outside_gallery)}

        environment = dict(os.environ, XDG_STATE_HOME=str(work / "state"), XDG_CACHE_HOME=str(work / "cache"),
                           XDG_RUNTIME_DIR=str(work / "run"))
        editor = subprocess.Popen([options.editor, "--no-open", "--json", "--first-page-seconds", "120", str(opened)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        line = editor.stdout.readline().decode()
        if not line:
            print(json.dumps({"ok": False, "error": "the editor printed nothing: " + editor.stderr.read().decode()}))
            return 2
        url = json.loads(line)["url"]
        port = int(re.search(r":(\d+)/", url).group(1))
        path_and_query = url.split(str(port), 1)[1]
        session = Session(port)

        forged = re.sub(r"key=([0-9a-f]{32})\.", lambda m: "key=" + "0" * 32 + ".", path_and_query)
        status, _, _ = session.request("GET", forged)
        check("a forged launch key is refused", status == 403, f"status {status}")
        status, headers, _ = session.request("GET", path_and_query, host=f"evil.example:{port}")
        check("the launch link with another Host is refused", status == 421 and "set-cookie" not in headers, f"status {status}")
        status, headers, _ = session.request("GET", path_and_query)
        cookie = headers.get("set-cookie", "")
        check("the launch link sets an HttpOnly SameSite=Strict cookie and leaves the address bar",
              status == 303 and "HttpOnly" in cookie and "SameSite=Strict" in cookie and headers.get("location", "").startswith("/")
              and "key=" not in headers.get("location", ""), f"status {status}, cookie {cookie!r}")
        session.cookie = cookie.split(";", 1)[0]
        status, _, _ = session.request("GET", path_and_query, cookie=False)
        check("a launch key works once", status == 403, f"status {status}")

        status, headers, body = session.request("GET", "/api/galleries")
        listing = json.loads(body) if status == 200 else {}
        names = sorted(g["fileName"] for g in listing.get("galleries", []))
        check("the listing shows the folder's own gallery and not the link out of it", names == ["inside.imagegallery"], f"{names}")
        check("every response has the strict CSP and nosniff",
              "script-src 'self'" in headers.get("content-security-policy", "") and "unsafe" not in headers.get("content-security-policy", "")
              and headers.get("x-content-type-options") == "nosniff", json.dumps(headers))
        inside_key = listing["galleries"][0]["key"] if listing.get("galleries") else ""

        for host in (f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1", f"localhost.evil.example:{port}"):
            status, headers, _ = session.request("GET", "/api/galleries", host=host)
            check(f"Host {host} is refused", status == 421, f"status {status}")
        status, _, _ = session.request("GET", "/api/galleries", cookie=False)
        check("no cookie is refused", status == 403, f"status {status}")
        status, _, _ = session.request("GET", "/api/galleries", cookie=session.cookie[:-1] + ("0" if session.cookie[-1] != "0" else "1"))
        check("a wrong cookie is refused", status == 403, f"status {status}")
        status, _, _ = session.request("GET", "/", cookie=False)
        check("the page itself needs the cookie", status == 403, f"status {status}")

        status, _, body = session.request("GET", f"/api/documents/{inside_key}?page=security")
        document = json.loads(body) if status == 200 else {"images": []}
        check("the opened folder's gallery opens", status == 200 and len(document["images"]) > 1, f"status {status}")
        image = document["images"][0] if document["images"] else {"id": "", "mediaType": ""}
        status, headers, _ = session.request("GET", f"/api/documents/{inside_key}/images/{image['id']}")
        check("an image comes with its checked type and nosniff",
              status == 200 and headers.get("content-type") == image["mediaType"] and headers.get("x-content-type-options") == "nosniff",
              f"status {status}, {headers.get('content-type')}")

        move = json.dumps({"op": "move", "id": image["id"], "to": 1})
        own_origin = f"http://127.0.0.1:{port}"
        for label, origin in (("no Origin", None), ("another site's Origin", "http://evil.example"),
                              ("another port's Origin", f"http://127.0.0.1:{port + 1}"), ("a null Origin", "null")):
            status, _, _ = session.request("POST", f"/api/documents/{inside_key}/edits?page=security", origin=origin, body=move)
            check(f"an edit with {label} is refused", status == 403, f"status {status}")
        status, _, _ = session.request("POST", "/api/galleries", origin="http://evil.example", body=json.dumps({"title": "Planted"}))
        check("a cross-site new gallery is refused", status == 403 and not (opened / "Planted.imagegallery").exists(), f"status {status}")

        # Uploads are bounded and sniffed as `add`'s inputs are: nothing reaches the gallery.
        upload = f"/api/documents/{inside_key}/images?page=security&at=0&name=big.png"
        try:
            status, _, body = session.request("POST", upload, origin=own_origin, body=b"\x89PNG\r\n\x1a\n" + bytes(50_000_001))
        except (ConnectionError, http.client.HTTPException) as error:
            status, body = None, str(error).encode()  # refused before the body was all sent
        check("an upload over 50 MB is refused with 413", status == 413, f"status {status}: {body[:200]!r}")
        status, _, body = session.request("POST", upload.replace("big.png", "page.png"), origin=own_origin,
                                          body=b"<!doctype html><script>alert(1)</script>")
        check("an upload that is not an image (HTML named .png) is refused with 422", status == 422, f"status {status}: {body[:200]!r}")

        outside_key = hashlib.sha256(str(outside_gallery.resolve()).encode()).hexdigest()[:24]
        for path in (f"/api/galleries/{outside_key}/thumbnail", f"/api/documents/{outside_key}?page=security",
                     "/api/galleries/../../../../etc/passwd", "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                     "/api/galleries/..%2F..%2Foutside%2Fsecret.imagegallery/thumbnail"):
            status, _, body = session.request("GET", path)
            check(f"{path} is not served", status in (400, 403, 404) and b"root:" not in body and b"Secret" not in body,
                  f"status {status}")
        status, _, _ = session.request("POST", f"/api/documents/{outside_key}/edits?page=security", origin=own_origin,
                                       body=json.dumps({"op": "title", "title": "Owned"}))
        check("an edit of the gallery behind the link is refused", status == 404, f"status {status}")

        addresses = listening_addresses(port)
        loopback = {"0100007F", "00000000000000000000000001000000"}
        check("the server listens on 127.0.0.1 and ::1 only", addresses and set(addresses) <= loopback, f"{addresses}")

        editor.send_signal(signal.SIGTERM)
        code = editor.wait(timeout=30)
        check("SIGTERM stops the editor with status 0", code == 0, f"status {code}: {editor.stderr.read().decode()}")
        after = {str(p): digest(p) for p in (inside_gallery, outside_gallery)}
        check("nothing changed on disk", after == before, "")
        check("no gallery was planted", sorted(p.name for p in opened.iterdir()) == ["inside.imagegallery", "link.imagegallery"],
              f"{sorted(p.name for p in opened.iterdir())}")
    except Exception as error:  # a crash of the checker is a failure to check, reported as such
        print(json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}", "checks": checks}))
        return 2
    finally:
        if editor and editor.poll() is None:
            editor.kill()
            editor.wait()
        shutil.rmtree(work, ignore_errors=True)

    failures = [f"{c['name']}: {c['detail']}" for c in checks if not c["ok"]]
    print(json.dumps({"ok": not failures, "failures": failures, "checks": checks}))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
