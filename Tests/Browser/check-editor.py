#!/usr/bin/python3
"""Checks the gallery editor (`imagegallery edit`) in headless Chromium, as a person uses it.

    check-editor.py --imagegallery BIN --editor EDITOR --fixtures IMAGES --artifacts DIR [--chromium PATH]

Makes two galleries in a temporary folder ("First" of every fixture image, "Second" of three),
starts EDITOR on that folder with short autosave and idle delays, opens its one-time link in
headless Chromium (driven over --remote-debugging-pipe, devtools.py) and works through the
scenarios of editor_scenarios.py with real mouse, keyboard and drag events. Every edit is then
checked on disk with `imagegallery list --json` and `info --json`, never only in the page.

Saves screenshots of the document browser and of a gallery into DIR, prints one JSON document
{ok, failures, steps: [{name, ok, detail}], screenshots, ...} and exits 0 when every check passed,
1 when a check failed, 2 when it could not check (Chromium missing or crashed, no editor).
"""

import sys
import tempfile
from pathlib import Path

# Run as a script from any folder: the shared modules sit beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from editor_scenarios import Scenarios  # noqa: E402
from harness import (could_not_check, create_gallery, editor_arguments, fixture_images, headless_chromium,  # noqa: E402
                     run_and_report, start_editor)

AUTOSAVE_SECONDS = 0.5
# Long enough that a page away for a moment (undo after reload) does not stop the server.
IDLE_SECONDS = 10
SECOND_GALLERY = ["1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg"]


def make_galleries(imagegallery, fixtures, folder):
    """Two galleries; returns their paths. A gallery that cannot be made is an error (exit 2)."""
    images = fixture_images(fixtures)
    made = {title: create_gallery(imagegallery, folder / f"{title}.imagegallery", title, sources)
            for title, sources in (("First", images), ("Second", [Path(fixtures) / name for name in SECOND_GALLERY]))}
    return made, len(images)


def main():
    arguments, chromium = editor_arguments(__doc__.split("\n")[0], "the imagegallery binary (for create, list, info)",
                                           "the imagegallery-editor binary under test", 300)

    with tempfile.TemporaryDirectory(prefix="check-editor-") as scratch:
        scratch = Path(scratch)
        folder = scratch / "galleries"
        folder.mkdir()
        try:
            galleries, image_count = make_galleries(arguments.imagegallery, arguments.fixtures, folder)
        except (RuntimeError, OSError) as error:
            could_not_check(str(error))
        editor = start_editor(arguments, folder, scratch, AUTOSAVE_SECONDS, IDLE_SECONDS)
        devtools = headless_chromium(chromium, scratch)
        scenarios = Scenarios(devtools, editor, arguments.imagegallery, folder, galleries, image_count, arguments.artifacts,
                              idle_seconds=IDLE_SECONDS)
        run_and_report(scenarios, devtools, editor, arguments.timeout, chromium, arguments.editor, scratch)


if __name__ == "__main__":
    main()
