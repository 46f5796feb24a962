"""What the editor's checks that run in Chromium and in Firefox ESR share (check-editor-privacy.py,
check-editor-slideshow.py): one gallery file per browser, made from the same images, an editor
for Chromium that run_and_report stops, and one of Firefox's own (a launch link serves one browser).
"""

import tempfile
from pathlib import Path

from harness import (CheckFailed, Editor, could_not_check, create_gallery, editor_arguments, headless_chromium,
                     run_and_report, start_editor)

BROWSERS = ("chromium", "firefox")


def run_in_both(doc, timeout, make_images, file_name, title, check_type):
    """Parses the arguments, makes the images (`make_images(scratch)`), a gallery `file_name` of them
    in a folder per browser, starts the editor on Chromium's and runs `check_type(devtools, editor,
    arguments, folders, scratch)`; prints the result and exits (harness.run_and_report)."""
    arguments, chromium = editor_arguments(doc.split("\n")[0], "the imagegallery binary (for create)",
                                           "the imagegallery-editor binary under test", timeout, firefox=True)
    with tempfile.TemporaryDirectory(prefix=f"check-{Path(file_name).stem.lower()}-") as scratch:
        scratch = Path(scratch).resolve()
        folders = {browser: scratch / f"{browser}-galleries" for browser in BROWSERS}
        try:
            images = make_images(scratch)
            for folder in folders.values():
                folder.mkdir()
                create_gallery(arguments.imagegallery, folder / file_name, title, images)
        except (RuntimeError, OSError) as error:
            could_not_check(error)
        editor = start_editor(arguments, folders["chromium"], scratch / "editor", 0.5, 2)
        devtools = headless_chromium(chromium, scratch)
        check = check_type(devtools, editor, arguments, folders, scratch)
        run_and_report(check, devtools, editor, arguments.timeout, chromium, arguments.editor, scratch)


def in_firefox(steps, arguments, folder, scratch, scenarios, preferences=None):
    """Headless Firefox ESR over BiDi, 1280 × 900, on an editor of its own over `folder`: the steps
    "Firefox: start", then `scenarios(firefox, origin)` (which records its own steps), then
    "Firefox: the editor's exit"."""
    from bidi import Firefox, find_firefox
    path = find_firefox(getattr(arguments, "firefox", None))
    editor = Editor(arguments.editor, folder, scratch / "firefox-editor", 0.5, 2)
    firefox = None
    try:
        with steps.step("Firefox: start") as record:
            if path is None:
                raise CheckFailed("firefox-esr is not installed: scripts/install-deps test installs it")
            if not editor.announcement or "url" not in editor.announcement:
                raise CheckFailed(f"the editor for Firefox printed no link: {editor.log_text()}")
            firefox = Firefox(path, scratch / "firefox-profile", scratch / "firefox.log", headless=True, preferences=preferences)
            firefox.set_viewport(1280, 900)
            url = editor.announcement["url"]
            firefox.navigate(url)
            record["detail"] = f"{path}, {url.split('/', 3)[2]}"
        if firefox is not None:
            scenarios(firefox, "/".join(editor.announcement["url"].split("/", 3)[:3]))
    finally:
        if firefox is not None:
            firefox.close()
        status = editor.stop()
    with steps.step("Firefox: the editor's exit") as record:
        if status != 0:
            raise CheckFailed(f"the editor for Firefox exited {status}: {editor.log_text()}")
        record["detail"] = "0"
