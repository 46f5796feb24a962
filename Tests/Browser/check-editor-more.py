#!/usr/bin/python3
"""Checks more of the gallery editor in headless Chromium: drops from outside the page, two
galleries side by side, the document browser's Trash and rename, changes made elsewhere, conflicts
(keep mine, keep current, merge), the detail view, a download, an image dragged out of the page,
an import, and accessibility (axe-core).

    check-editor-more.py --imagegallery BIN --editor EDITOR --fixtures IMAGES --artifacts DIR [--chromium PATH]

Makes galleries in a temporary folder and starts EDITOR on it (its imagegallery-fetch beside it)
with private XDG folders (the Trash goes to $XDG_DATA_HOME/Trash), short autosave and idle
delays; a loopback HTTP server on 127.0.0.1 serves IMAGES for the dropped links. The scenarios
(editor_more_scenarios.py, editor_more_keys.py, editor_more_library.py and editor_more_versions.py,
on editor_more_page.py) use real keys, mouse and drag events, and check every change on disk with
`imagegallery list --json` and `info --json`. A second editor, with a 30 s autosave, on galleries
of its own, serves the conflict scenarios (keep mine and keep current, then a merge, after which
its page closes and it must stop by itself). axe-core comes
from PyPI's axe-playwright-python (scripts/install-deps test installs it; else pip installs it
into the scratch folder, and the accessibility step fails with pip's reason if it cannot).

Saves editor-detail.png and editor-beside.png into DIR, prints one JSON document
{ok, failures, steps: [{name, ok, detail}], screenshots, ...} and exits 0 when every check passed,
1 when a check failed, 2 when it could not check (Chromium missing or crashed, no editor).
"""

import functools
import http.server
import os
import shutil
import struct
import sys
import tempfile
import threading
import zlib
from pathlib import Path

# Run as a script from any folder: the shared modules sit beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from editor_more_scenarios import MoreScenarios  # noqa: E402
from harness import (Editor, could_not_check, create_gallery, editor_arguments, fixture_images, headless_chromium,  # noqa: E402
                     run_and_report, start_editor)

AUTOSAVE_SECONDS = 0.5
IDLE_SECONDS = 2
FIXTURES = ["1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg", "4-dunes.jpg", "5-balloon-rotated.jpg",
            "6-bubbles.png", "7-quilt-palette.png", "8-deep-gradient.png"]
# A gallery file and an image file whose names are markup, with a right-to-left override: shown
# as text everywhere, never as markup (the title is the same text).
HOSTILE_NAME = "<img src=x onerror=alert(1)>\u202egnp.evil"
HOSTILE_IMAGE = "<img src=x onerror=alert(2)>.png"
# Enough images that the grid must be virtualised (it is from 300), each a distinct small PNG: as
# many as the large galleries whose end could not be reached by scrolling (issue 28).
LARGE_IMAGES = 10000
# title: the fixture images it starts with (None: every JPEG and PNG of the fixtures; a number:
# that many generated images).
GALLERIES = {
    "Drops": FIXTURES[0:3], "Order": FIXTURES[0:3], "Left": FIXTURES[3:6], "Right": FIXTURES[6:8], "Pages": None,
    "Watched": FIXTURES[0:2], "Doomed": FIXTURES[2:3], "Named": FIXTURES[3:4],
    "KeyLeft": FIXTURES[0:2], "KeyRight": FIXTURES[2:3], "Picked": FIXTURES[0:1], "Unsaved": FIXTURES[0:2],
    "Types": FIXTURES[0:1],
    "Large": LARGE_IMAGES, HOSTILE_NAME: HOSTILE_IMAGE,
}
# The second editor's: a conflict merged, and two settled by keeping one side.
CONFLICT_GALLERIES = {"Conflict": FIXTURES[0:3], "KeepMine": FIXTURES[0:2], "KeepCurrent": FIXTURES[0:2]}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *arguments):  # noqa: A002 (the base class's name)
        pass


class LoopbackServer:
    """The other site the dragged links come from: Python's http.server on 127.0.0.1, serving the fixtures."""

    def __init__(self, folder):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def generated_images(folder, count):
    """`count` distinct 16×12 PNGs, named so that their order is the numbers' order."""
    folder.mkdir()
    for number in range(count):
        red, green, blue = number % 256, (number // 256) % 256, (number * 37) % 256
        rows = b"".join(b"\0" + bytes((red, green, blue)) * 16 for _ in range(12))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        header = struct.pack(">IIBBBBB", 16, 12, 8, 2, 0, 0, 0)
        (folder / f"{number:05d}.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                                                   + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return folder


def make_galleries(imagegallery, fixtures, folder, galleries):
    """The galleries of `galleries` in `folder`; returns {title: path}. One that cannot be made is an error (exit 2)."""
    folder.mkdir()
    every = fixture_images(fixtures)
    made = {}
    for title, names in galleries.items():
        path = folder / f"{title}.imagegallery"
        if names == HOSTILE_IMAGE:
            hostile = folder.parent / "hostile-images"
            hostile.mkdir()
            shutil.copy(Path(fixtures) / FIXTURES[1], hostile / HOSTILE_IMAGE)
            sources = [hostile / HOSTILE_IMAGE]
        elif isinstance(names, int):
            sources = [generated_images(folder.parent / f"{title.lower()}-images", names)]
        else:
            sources = every if names is None else [Path(fixtures) / name for name in names]
        made[title] = create_gallery(imagegallery, path, title, sources)
    return made


def main():
    arguments, chromium = editor_arguments(__doc__.split("\n")[0], "the imagegallery binary (for create, list, info, add, caption)",
                                           "the imagegallery-editor binary under test (imagegallery-fetch beside it)", 420)

    with tempfile.TemporaryDirectory(prefix="check-editor-more-") as scratch:
        scratch = Path(scratch).resolve()
        # The command-line tool run by the scenarios (list, add, caption) keeps its cache here too.
        os.environ["XDG_CACHE_HOME"] = str(scratch / "cli-cache")
        try:
            galleries = make_galleries(arguments.imagegallery, arguments.fixtures, scratch / "galleries", GALLERIES)
            conflicts = make_galleries(arguments.imagegallery, arguments.fixtures, scratch / "conflict", CONFLICT_GALLERIES)
        except (RuntimeError, OSError) as error:
            could_not_check(error)
        editor = start_editor(arguments, scratch / "galleries", scratch / "editor", AUTOSAVE_SECONDS, IDLE_SECONDS)
        links = LoopbackServer(Path(arguments.fixtures).resolve())
        devtools = headless_chromium(chromium, scratch)

        def start_conflict_editor():
            # Autosave 30 s: the caption typed in the page stays unsaved while the file changes under it.
            return Editor(arguments.editor, scratch / "conflict", scratch / "conflict-editor", 30, IDLE_SECONDS)

        scenarios = MoreScenarios(devtools, editor, arguments.imagegallery, arguments.fixtures, scratch, galleries,
                                  conflicts, start_conflict_editor, links.base, arguments.artifacts)
        run_and_report(scenarios, devtools, editor, arguments.timeout, chromium, arguments.editor, scratch,
                       stop=(scenarios.stop_conflict_editor, links.stop))


if __name__ == "__main__":
    main()
