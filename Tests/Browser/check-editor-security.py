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
come with their checked media type, and that the server listens on loopback only. Bodies are
bounded, over real HTTP (raw sockets where the client lies): a JSON body over 1 MiB is 413,
declared or chunked; a declared Content-Length over a route's limit is answered 413 before the
body is read, and the connection is closed (a 10 GB import with a short body does not hold it
open); a body that stops arriving is cut off by the read timeout; an archive that cannot be
read is 422; and an import is bounded by --max-import-bytes and by the free space less a margin
(two more editors), leaving nothing in the folder.

Prints one JSON document {ok, failures, checks} and exits 0 when every check passed, 1 when one
failed, 2 when it could not check at all.
"""

import http.client
import json
import os
import re
import socket
import sys
import time
from pathlib import Path

# Run as a script from any folder: the shared modules sit beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import create_gallery, gallery_key, http_check, sha256, xdg_folders  # noqa: E402

# How long a connection may take to be answered or closed before a check calls it held open. A
# met wait ends at once; the editor's own read timeout here is 3 s.
HOLD_BOUND = 60
READ_TIMEOUT_SECONDS = 3


def raw_request(port, head, body=b"", bound=HOLD_BOUND):
    """Sends `head` (the request line and headers, CRLF-separated, ending in an empty line) and
    `body` on a socket of its own, as a client that says what it likes does, then reads until the
    server closes the connection or `bound` seconds pass. Returns (status or None, what was read,
    whether the server closed the connection)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    data, closed = b"", False
    deadline = time.monotonic() + bound
    try:
        sock.sendall(head.encode() + body)
        while time.monotonic() < deadline:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                closed = True
                break
            data += chunk
    except (ConnectionResetError, BrokenPipeError):
        closed = True
    finally:
        sock.close()
    match = re.match(rb"HTTP/1\.1 (\d{3})", data)
    return (int(match.group(1)) if match else None), data, closed


def upload_head(port, cookie, path, length=None, chunked=False):
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nOrigin: http://127.0.0.1:{port}\r\n"
            "Content-Type: application/octet-stream\r\n"
            + (f"Content-Length: {length}\r\n" if length is not None else "")
            + ("Transfer-Encoding: chunked\r\n" if chunked else "") + "\r\n")


def chunked(data, size=65536):
    return b"".join(b"%x\r\n" % len(data[i:i + size]) + data[i:i + size] + b"\r\n" for i in range(0, len(data), size)) + b"0\r\n\r\n"


def spools(folder):
    return sorted(path.name for path in folder.iterdir() if path.name.startswith(".imagegallery-import-"))


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


def origin_of(port):
    """The Origin of the editor's own page."""
    return f"http://127.0.0.1:{port}"


def upload_path(inside_key):
    """Where the page uploads an image (big.png, at the first place) into the inside gallery."""
    return f"/api/documents/{inside_key}/images?page=security&at=0&name=big.png"


def edits_path(inside_key):
    """Where the page sends the inside gallery's edits."""
    return f"/api/documents/{inside_key}/edits?page=security"


def make_galleries(options, work):
    """The opened folder with its own gallery and a link to a gallery outside it: (folder, inside, outside)."""
    opened = work / "opened"
    outside = work / "outside"
    opened.mkdir()
    outside.mkdir()
    inside_gallery = opened / "inside.imagegallery"
    outside_gallery = outside / "secret.imagegallery"
    for target, title in ((inside_gallery, "Inside"), (outside_gallery, "Secret")):
        create_gallery(options.imagegallery, target, title, [options.fixtures])
    (opened / "link.imagegallery").symlink_to(outside_gallery)
    return opened, inside_gallery, outside_gallery


def check_launch_link(check, session, port, path_and_query):
    """The launch link: its key forged, another Host, the cookie it sets, used twice."""
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


def check_listing_and_hosts(check, session, port):
    """The listing, its headers, and requests with another Host or cookie; the inside gallery's key."""
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
    return inside_key


def check_document(check, session, inside_key):
    """The opened gallery and one image of it, served with its checked type; that image."""
    status, _, body = session.request("GET", f"/api/documents/{inside_key}?page=security")
    document = json.loads(body) if status == 200 else {"images": []}
    check("the opened folder's gallery opens", status == 200 and len(document["images"]) > 1, f"status {status}")
    image = document["images"][0] if document["images"] else {"id": "", "mediaType": ""}
    status, headers, _ = session.request("GET", f"/api/documents/{inside_key}/images/{image['id']}")
    check("an image comes with its checked type and nosniff",
          status == 200 and headers.get("content-type") == image["mediaType"] and headers.get("x-content-type-options") == "nosniff",
          f"status {status}, {headers.get('content-type')}")
    return image


def check_origins(check, session, port, inside_key, image, opened):
    """Edits and new galleries from another Origin, or none, are refused."""
    move = json.dumps({"op": "move", "id": image["id"], "to": 1})
    for label, origin in (("no Origin", None), ("another site's Origin", "http://evil.example"),
                          ("another port's Origin", f"http://127.0.0.1:{port + 1}"), ("a null Origin", "null")):
        status, _, _ = session.request("POST", f"/api/documents/{inside_key}/edits?page=security", origin=origin, body=move)
        check(f"an edit with {label} is refused", status == 403, f"status {status}")
    status, _, _ = session.request("POST", "/api/galleries", origin="http://evil.example", body=json.dumps({"title": "Planted"}))
    check("a cross-site new gallery is refused", status == 403 and not (opened / "Planted.imagegallery").exists(), f"status {status}")


def check_body_bounds(check, session, port, inside_key):
    """Uploads and JSON bodies are bounded and sniffed."""
    own_origin = origin_of(port)
    # Uploads are bounded and sniffed as `add`'s inputs are: nothing reaches the gallery.
    upload = upload_path(inside_key)
    try:
        status, _, body = session.request("POST", upload, origin=own_origin, body=b"\x89PNG\r\n\x1a\n" + bytes(50_000_001))
    except (ConnectionError, http.client.HTTPException) as error:
        status, body = None, str(error).encode()  # refused before the body was all sent
    check("an upload over 50 MB is refused with 413", status == 413, f"status {status}: {body[:200]!r}")
    status, _, body = session.request("POST", upload.replace("big.png", "page.png"), origin=own_origin,
                                      body=b"<!doctype html><script>alert(1)</script>")
    check("an upload that is not an image (HTML named .png) is refused with 422", status == 422, f"status {status}: {body[:200]!r}")

    # Bodies are bounded: a JSON body over 1 MiB is 413 (not NIO's internal error), declared or not.
    edits = edits_path(inside_key)
    big_title = json.dumps({"op": "title", "title": "x" * (1 << 20)}).encode()
    try:
        status, _, body = session.request("POST", edits, origin=own_origin, body=big_title)
    except (ConnectionError, http.client.HTTPException) as error:
        status, body = None, str(error).encode()
    check("a JSON body over 1 MiB is refused with 413", status == 413 and b"TooManyBytes" not in body,
          f"status {status}: {body[:200]!r}")
    status, data, closed = raw_request(port, upload_head(port, session.cookie, edits, chunked=True), chunked(big_title))
    check("a chunked JSON body over 1 MiB is refused with 413, and its connection closed",
          status == 413 and closed and b"TooManyBytes" not in data, f"status {status}, closed {closed}: {data[:300]!r}")


def check_declared_sizes(check, session, port, inside_key, opened):
    """Bodies that declare too much, stop arriving or cannot be read."""
    own_origin = origin_of(port)
    upload = upload_path(inside_key)
    edits = edits_path(inside_key)
    # A client that declares 10 GB and sends a few bytes: answered 413 before the body is read,
    # the connection closed, nothing written into the folder.
    huge = f"/api/import?folder=0&name=huge.zip"
    status, data, closed = raw_request(port, upload_head(port, session.cookie, huge, length=10_000_000_000), b"PK\x03\x04" + bytes(100))
    check("an import declaring 10 GB is refused with 413 at once and its connection closed",
          status == 413 and closed and not spools(opened), f"status {status}, closed {closed}, spools {spools(opened)}: {data[:300]!r}")
    status, data, closed = raw_request(port, upload_head(port, session.cookie, upload.replace("big.png", "huge.png"),
                                                         length=10_000_000_000), b"\x89PNG")
    check("an image declaring 10 GB is refused with 413 at once and its connection closed", status == 413 and closed,
          f"status {status}, closed {closed}: {data[:300]!r}")
    # One that declares a small body and stops sending it: cut off by the read timeout.
    status, data, closed = raw_request(port, upload_head(port, session.cookie, edits, length=1000), b'{"op": "ti')
    check("a body that stops arriving is cut off by the read timeout", closed, f"status {status}, closed {closed}: {data[:300]!r}")
    # An archive that cannot be read is the file's fault: 422, naming it as the user did.
    status, _, body = session.request("POST", "/api/import?folder=0&name=broken.zip", origin=own_origin,
                                      body=b"PK\x03\x04" + bytes(range(256)) * 64)
    check("an archive that cannot be read is refused with 422, by its name, leaving nothing",
          status == 422 and b"broken.zip" in body and b".imagegallery-import-" not in body and not spools(opened),
          f"status {status}: {body[:300]!r}")


def check_outside_paths(check, session, port, outside_gallery):
    """Nothing outside the opened folder is served or edited, and the server listens on loopback only."""
    own_origin = origin_of(port)
    outside_key = gallery_key(outside_gallery)
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


def check_shutdown(check, editor, opened, before, inside_gallery, outside_gallery):
    """SIGTERM stops the editor, and nothing changed or appeared on disk."""
    code = editor.stop()
    check("SIGTERM stops the editor with status 0", code == 0, f"status {code}: {editor.process.stderr.read().decode()}")
    after = {str(p): sha256(p) for p in (inside_gallery, outside_gallery)}
    check("nothing changed on disk", after == before, "")
    check("no gallery was planted", sorted(p.name for p in opened.iterdir()) == ["inside.imagegallery", "link.imagegallery"],
          f"{sorted(p.name for p in opened.iterdir())}")


def check_import_limits(check, start, opened, work):
    """--max-import-bytes and --import-free-space-margin bound an import."""
    # An import is bounded by --max-import-bytes: declared, and as it arrives (chunked).
    limited = start(opened, xdg_folders(work, "state-limited", "cache-limited", "run-limited"), "--max-import-bytes", "1000000")
    port, cookie = limited.port, limited.cookie
    status, data, closed = raw_request(port, upload_head(port, cookie, "/api/import?folder=0&name=two.zip", length=2_000_000), bytes(10))
    check("--max-import-bytes 1000000: an import declaring 2 MB is refused with 413 at once",
          status == 413 and closed, f"status {status}, closed {closed}: {data[:300]!r}")
    status, data, closed = raw_request(port, upload_head(port, cookie, "/api/import?folder=0&name=two.zip", chunked=True),
                                       chunked(bytes(2_000_000)))
    check("--max-import-bytes 1000000: a chunked import of 2 MB is refused with 413, leaving nothing",
          status == 413 and not spools(opened), f"status {status}, spools {spools(opened)}: {data[:300]!r}")
    limited.stop()
    # ...and never beyond the free space less a margin: here a margin of all but 2 MiB of it.
    free = os.statvfs(opened)
    margin = free.f_bavail * free.f_frsize - (2 << 20)
    cramped = start(opened, xdg_folders(work, "state-cramped", "cache-cramped", "run-cramped"),
                    "--import-free-space-margin", str(margin))
    port, cookie = cramped.port, cramped.cookie
    status, data, closed = raw_request(port, upload_head(port, cookie, "/api/import?folder=0&name=three.zip", length=3 << 30), bytes(10))
    check("an import larger than the free space less the margin is refused with 413, saying so",
          status == 413 and closed and b"free" in data, f"status {status}, closed {closed}: {data[:300]!r}")
    cramped.stop()
    check("the refused imports left nothing in the folder",
          sorted(p.name for p in opened.iterdir()) == ["inside.imagegallery", "link.imagegallery"],
          f"{sorted(p.name for p in opened.iterdir())}")


def checks(check, options, work, start):
    opened, inside_gallery, outside_gallery = make_galleries(options, work)
    before = {str(p): sha256(p) for p in (inside_gallery, outside_gallery)}
    # Its launch link is the first check's: not used yet.
    editor = start(opened, xdg_folders(work), "--read-timeout-seconds", str(READ_TIMEOUT_SECONDS), log_in=False)
    port = editor.port
    check_launch_link(check, editor, port, editor.launch)
    inside_key = check_listing_and_hosts(check, editor, port)
    image = check_document(check, editor, inside_key)
    check_origins(check, editor, port, inside_key, image, opened)
    check_body_bounds(check, editor, port, inside_key)
    check_declared_sizes(check, editor, port, inside_key, opened)
    check_outside_paths(check, editor, port, outside_gallery)
    check_shutdown(check, editor, opened, before, inside_gallery, outside_gallery)
    check_import_limits(check, start, opened, work)


if __name__ == "__main__":
    sys.exit(http_check("editor-security-", checks))
