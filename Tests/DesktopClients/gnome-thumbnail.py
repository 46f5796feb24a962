#!/usr/bin/python3
"""GNOME's thumbnail factory (gnome-desktop, through PyGObject) on each file: runs the installed
thumbnailer in its bubblewrap sandbox, as Nautilus does. With DESKTOP_FACTORY=cinnamon or mate,
the factory of cinnamon-desktop (Nemo) or mate-desktop (Caja) instead, forks of GNOME's. Prints
one line per file: `PATH MIME ok WIDTH HEIGHT` or `PATH MIME failed RECORDED` (whether the
failure was recorded)."""
import os
import sys

import gi
from gi.repository import Gio  # noqa: E402

NAMESPACE, VERSION = {"gnome": ("GnomeDesktop", "3.0"), "cinnamon": ("CinnamonDesktop", "3.0"),
                      "mate": ("MateDesktop", "2.0")}[os.environ.get("DESKTOP_FACTORY", "gnome")]
gi.require_version(NAMESPACE, VERSION)
Desktop = __import__("gi.repository", fromlist=[NAMESPACE]).__dict__[NAMESPACE]

factory = Desktop.DesktopThumbnailFactory.new(Desktop.DesktopThumbnailSize.NORMAL)
for path in sys.argv[1:]:
    file = Gio.File.new_for_path(os.path.abspath(path))
    info = file.query_info('standard::content-type,time::modified', 0, None)
    mime = info.get_content_type()
    mtime = info.get_attribute_uint64('time::modified')
    uri = file.get_uri()
    if not factory.can_thumbnail(uri, mime, mtime):
        print(path, mime, 'unsupported')
        continue
    try:
        # GNOME's takes a GCancellable; the forks' older signature does not.
        pixbuf = factory.generate_thumbnail(uri, mime, None) if NAMESPACE == "GnomeDesktop" \
            else factory.generate_thumbnail(uri, mime)
    except Exception:
        pixbuf = None
    if pixbuf is None:
        # What a file manager does with a failure: record it, so the file is not tried again.
        if NAMESPACE == "GnomeDesktop":
            factory.create_failed_thumbnail(uri, mtime, None)
        else:
            factory.create_failed_thumbnail(uri, mtime)
        print(path, mime, 'failed', factory.has_valid_failed_thumbnail(uri, mtime))
    else:
        print(path, mime, 'ok', pixbuf.get_width(), pixbuf.get_height())
