#!/usr/bin/python3
"""The editor and other editors taking turns on one gallery, through the document layer's lock.

    check-editor-locks.py --editor PATH_TO_imagegallery-editor --imagegallery PATH --fixtures DIR

  - while a page has a gallery open, the editor holds its lock: `imagegallery caption --wait 0`
    exits 75 and changes nothing; with a longer --wait the editor lets the CLI in (as an
    NSFilePresenter relinquishes to a writer), then reads its file and is editable again; and
    it goes through once the page has closed the gallery;
  - the other way round, a second editor (another server, as another session would start) opens
    the gallery read-only, and its view says who holds it; an edit there is refused (409) and
    changes nothing.

Prints one JSON document {ok, failures, checks} and exits 0, 1 (a check failed) or 2 (could not check).
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
import time
from pathlib import Path


class Editor:
    """One editor server on `folder`, with its own runtime folder (so that it is not reused)."""

    def __init__(self, binary, folder, work, name):
        environment = dict(os.environ, XDG_STATE_HOME=str(work / "state"), XDG_CACHE_HOME=str(work / "cache"),
                           XDG_RUNTIME_DIR=str(work / f"run-{name}"))
        self.process = subprocess.Popen([binary, "--no-open", "--json", "--first-page-seconds", "120", str(folder)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        line = self.process.stdout.readline().decode()
        if not line:
            raise RuntimeError("the editor printed nothing: " + self.process.stderr.read().decode())
        url = json.loads(line)["url"]
        self.port = int(re.search(r":(\d+)/", url).group(1))
        status, headers, _ = self.request("GET", url.split(str(self.port), 1)[1], cookie=None)
        if status != 303:
            raise RuntimeError(f"the launch link answered {status}")
        self.cookie = headers.get("set-cookie", "").split(";", 1)[0]

    def request(self, method, path, body=None, cookie=True):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Host": f"127.0.0.1:{self.port}", "Origin": f"http://127.0.0.1:{self.port}"}
        if cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=30)


def caption(options, gallery, environment, text, wait):
    """`imagegallery caption` of the gallery's first image, waiting up to WAIT seconds for its lock."""
    return subprocess.run([options.imagegallery, "caption", str(gallery), "1", text, "--wait", str(wait)],
                          capture_output=True, env=environment)


def first_caption(options, gallery):
    """The caption of the gallery's first image on disk, as `imagegallery list --json` reads it."""
    listed = json.loads(subprocess.run([options.imagegallery, "list", "--json", str(gallery)], capture_output=True,
                                       check=True).stdout)
    return listed[0].get("caption")


def digest(gallery):
    return hashlib.sha256(gallery.read_bytes()).hexdigest()


def check_first_editor(check, options, first, gallery, environment):
    """The editor that opens the gallery first holds it: the CLI waits for it or gives up. The
    gallery's key."""
    status, _, body = first.request("GET", "/api/galleries")
    key = json.loads(body)["galleries"][0]["key"]
    status, _, body = first.request("GET", f"/api/documents/{key}?page=one")
    view = json.loads(body) if status == 200 else {}
    check("the first editor opens the gallery for editing", status == 200 and view.get("state") == "normal", f"{status} {view.get('state')}")

    before = digest(gallery)
    result = caption(options, gallery, environment, "from the shell", 0)
    check("a CLI edit while the page has it open exits 75", result.returncode == 75,
          f"status {result.returncode}: {result.stderr.decode().strip()}")
    check("and changes nothing", digest(gallery) == before)

    # A writer that waits is let in, as an NSFilePresenter relinquishes to a writer: the
    # editor lets the lock go, takes it back once the CLI is done, and reads its file.
    result = caption(options, gallery, environment, "while the page has it open", 60)
    check("with --wait, a CLI edit while the page has it open goes through", result.returncode == 0,
          f"status {result.returncode}: {result.stderr.decode().strip()}")
    on_disk = first_caption(options, gallery)
    check("its caption is on disk", on_disk == "while the page has it open", f"{on_disk}")
    view, captions = view_once_captioned(first, key, "while the page has it open")
    check("the page's view reads the CLI's file and is editable again", view.get("state") == "normal"
          and captions[:1] == ["while the page has it open"], f"{view.get('state')} {captions[:1]} {view.get('message')}")
    return key


def view_once_captioned(editor, key, text):
    """The page's view of the gallery once it is editable with TEXT as its first caption, or after a
    minute: the view and its captions."""
    deadline = time.monotonic() + 60
    while True:
        status, _, body = editor.request("GET", f"/api/documents/{key}?page=one")
        view = json.loads(body) if status == 200 else {}
        captions = [image.get("caption") for image in view.get("images", [])]
        if (view.get("state") == "normal" and captions[:1] == [text]) or time.monotonic() > deadline:
            return view, captions
        time.sleep(0.1)


def check_second_editor(check, second, key, gallery, before):
    """A second editor gets the gallery read-only, says who holds it, and refuses edits: the file
    stays as it was BEFORE (its digest, taken before the second editor started)."""
    status, _, body = second.request("GET", f"/api/documents/{key}?page=two")
    view = json.loads(body) if status == 200 else {}
    check("a second editor opens it read-only and says who holds it",
          status == 200 and view.get("state") == "editing disabled" and "is editing this gallery" in (view.get("message") or ""),
          f"{status} {view.get('state')} {view.get('message')}")
    status, _, body = second.request("POST", f"/api/documents/{key}/edits?page=two",
                                     body=json.dumps({"op": "title", "title": "Not allowed"}))
    check("an edit there is refused with 409", status == 409, f"{status} {body[:200]!r}")
    check("and changes nothing either", digest(gallery) == before)


def check_after_close(check, options, first, key, gallery, environment):
    """The page leaves the gallery: the lock goes with the document's close."""
    first.request("POST", f"/api/documents/{key}/close?page=one")
    result = caption(options, gallery, environment, "from the shell", 10)
    check("once the page has closed it, the CLI edit goes through", result.returncode == 0,
          f"status {result.returncode}: {result.stderr.decode().strip()}")
    on_disk = first_caption(options, gallery)
    check("the caption is on disk", on_disk == "from the shell", f"{on_disk}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--editor", required=True)
    parser.add_argument("--imagegallery", required=True)
    parser.add_argument("--fixtures", required=True)
    options = parser.parse_args()
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": detail})

    work = Path(tempfile.mkdtemp(prefix="editor-locks-"))
    editors = []
    try:
        folder = work / "galleries"
        folder.mkdir()
        gallery = folder / "shared.imagegallery"
        subprocess.run([options.imagegallery, "create", str(gallery), "--title", "Shared", options.fixtures],
                       check=True, capture_output=True)
        environment = dict(os.environ, XDG_STATE_HOME=str(work / "state"))
        first = Editor(options.editor, folder, work, "first")
        editors.append(first)
        key = check_first_editor(check, options, first, gallery, environment)
        before = digest(gallery)
        second = Editor(options.editor, folder, work, "second")
        editors.append(second)
        check_second_editor(check, second, key, gallery, before)
        check_after_close(check, options, first, key, gallery, environment)
        codes = [editor.stop() for editor in editors]
        check("both editors stop with status 0", codes == [0, 0], f"{codes}")
    except Exception as error:
        print(json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}", "checks": checks}))
        return 2
    finally:
        for editor in editors:
            if editor.process.poll() is None:
                editor.process.kill()
                editor.process.wait()
        shutil.rmtree(work, ignore_errors=True)

    failures = [f"{c['name']}: {c['detail']}" for c in checks if not c["ok"]]
    print(json.dumps({"ok": not failures, "failures": failures, "checks": checks}))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
