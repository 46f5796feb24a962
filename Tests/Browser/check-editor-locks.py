#!/usr/bin/python3
"""The editor and other editors taking turns on one gallery, through the document layer's lock.

    check-editor-locks.py --editor PATH_TO_imagegallery-editor --imagegallery PATH --fixtures DIR

  - while a page has a gallery open, the editor holds its lock: `imagegallery caption --wait 0`
    exits 75 and changes nothing; with a longer --wait the editor lets the CLI in (as an
    NSFilePresenter relinquishes to a writer), then reads its file and is editable again; and
    it goes through once the page has closed the gallery;
  - the other way round, a second editor (another server, as another session would start) opens
    the gallery read-only, and its view says who holds it; an edit there is refused (409) and
    changes nothing;
  - an editor started for one gallery takes its lock before any page asks, and lets it go after
    the reload grace when no page comes.

Prints one JSON document {ok, failures, checks} and exits 0, 1 (a check failed) or 2 (could not check).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

# Run as a script from any folder: the shared modules sit beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import create_gallery, http_check, sha256, until, xdg_folders  # noqa: E402


def caption(options, gallery, environment, text, wait):
    """`imagegallery caption` of the gallery's first image, waiting up to WAIT seconds for its lock."""
    return subprocess.run([options.imagegallery, "caption", str(gallery), "1", text, "--wait", str(wait)],
                          capture_output=True, env=environment)


def first_caption(options, gallery):
    """The caption of the gallery's first image on disk, as `imagegallery list --json` reads it."""
    listed = json.loads(subprocess.run([options.imagegallery, "list", "--json", str(gallery)], capture_output=True,
                                       check=True).stdout)
    return listed[0].get("caption")


def check_first_editor(check, options, first, gallery, environment):
    """The editor that opens the gallery first holds it: the CLI waits for it or gives up. The
    gallery's key."""
    status, _, body = first.request("GET", "/api/galleries")
    key = json.loads(body)["galleries"][0]["key"]
    status, _, body = first.request("GET", f"/api/documents/{key}?page=one")
    view = json.loads(body) if status == 200 else {}
    check("the first editor opens the gallery for editing", status == 200 and view.get("state") == "normal", f"{status} {view.get('state')}")

    before = sha256(gallery)
    result = caption(options, gallery, environment, "from the shell", 0)
    check("a CLI edit while the page has it open exits 75", result.returncode == 75,
          f"status {result.returncode}: {result.stderr.decode().strip()}")
    check("and changes nothing", sha256(gallery) == before)

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
    def read():
        status, _, body = editor.request("GET", f"/api/documents/{key}?page=one")
        seen["view"] = view = json.loads(body) if status == 200 else {}
        seen["captions"] = captions = [image.get("caption") for image in view.get("images", [])]
        return view.get("state") == "normal" and captions[:1] == [text]
    seen = {}
    until(read, 60, 0.1)
    return seen["view"], seen["captions"]


def check_second_editor(check, second, key, gallery, before):
    """A second editor gets the gallery read-only, says who holds it, and refuses edits: the file
    stays as it was BEFORE (its digest, taken before the second editor started)."""
    status, _, body = second.request("GET", f"/api/documents/{key}?page=two")
    view = json.loads(body) if status == 200 else {}
    check("a second editor opens it read-only and says who holds it",
          status == 200 and view.get("state") == "editing disabled" and "is editing this gallery" in (view.get("message") or ""),
          f"{status} {view.get('state')} {view.get('message')}")
    status, _, body = second.request("POST", f"/api/documents/{key}/edits?page=two", origin=second.origin,
                                     body=json.dumps({"op": "title", "title": "Not allowed"}))
    check("an edit there is refused with 409", status == 409, f"{status} {body[:200]!r}")
    check("and changes nothing either", sha256(gallery) == before)


def check_after_close(check, options, first, key, gallery, environment):
    """The page leaves the gallery: the lock goes with the document's close."""
    first.request("POST", f"/api/documents/{key}/close?page=one", origin=first.origin)
    result = caption(options, gallery, environment, "from the shell", 10)
    check("once the page has closed it, the CLI edit goes through", result.returncode == 0,
          f"status {result.returncode}: {result.stderr.decode().strip()}")
    on_disk = first_caption(options, gallery)
    check("the caption is on disk", on_disk == "from the shell", f"{on_disk}")


def check_launch_open(check, options, work, start, environment):
    """An editor started for one gallery opens it at once, before its page asks (the open overlaps
    the browser's start); with no page to take it, it lets it go after the reload grace."""
    folder = work / "launch"
    folder.mkdir()
    gallery = create_gallery(options.imagegallery, folder / "launched.imagegallery", "Launched", [options.fixtures])
    lock = folder / ".launched.imagegallery.lock"
    editor = start(gallery, xdg_folders(work, run="run-launch"), "--reload-grace-seconds", "3", log_in=False)
    held = until(lock.exists, timeout=30, interval=0.05)
    check("the gallery an editor is started for is opened before any page asks (its lock is held)", held)
    result = caption(options, gallery, environment, "from the shell", 0)
    check("a CLI edit meanwhile exits 75", result.returncode == 75, f"status {result.returncode}: {result.stderr.decode().strip()}")
    released = until(lambda: not lock.exists(), timeout=60, interval=0.1)
    check("with no page to take it, it is closed after the reload grace", released)
    result = caption(options, gallery, environment, "from the shell", 10)
    check("then a CLI edit goes through", result.returncode == 0, f"status {result.returncode}: {result.stderr.decode().strip()}")
    check("and the editor stops with status 0", editor.stop() == 0)


def checks(check, options, work, start):
    folder = work / "galleries"
    folder.mkdir()
    gallery = create_gallery(options.imagegallery, folder / "shared.imagegallery", "Shared", [options.fixtures])
    environment = dict(os.environ, XDG_STATE_HOME=str(work / "state"))
    # The editors and the CLI share one state folder: the lock records are there.
    first = start(folder, xdg_folders(work, run="run-first"))
    key = check_first_editor(check, options, first, gallery, environment)
    before = sha256(gallery)
    second = start(folder, xdg_folders(work, run="run-second"))
    check_second_editor(check, second, key, gallery, before)
    check_after_close(check, options, first, key, gallery, environment)
    codes = [editor.stop() for editor in (first, second)]
    check("both editors stop with status 0", codes == [0, 0], f"{codes}")
    check_launch_open(check, options, work, start, environment)


if __name__ == "__main__":
    sys.exit(http_check("editor-locks-", checks))
