#!/usr/bin/python3
"""GNOME's thumbnail factory (gnome-desktop, through PyGObject) on each file: runs the installed
thumbnailer in its bubblewrap sandbox, as Nautilus does. Prints one line per file:
`PATH MIME ok WIDTH HEIGHT` or `PATH MIME failed RECORDED` (whether the failure was recorded)."""
import os
import sys

import gi
gi.require_version('GnomeDesktop', '3.0')
from gi.repository import Gio, GnomeDesktop  # noqa: E402

factory = GnomeDesktop.DesktopThumbnailFactory.new(GnomeDesktop.DesktopThumbnailSize.NORMAL)
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
        pixbuf = factory.generate_thumbnail(uri, mime, None)
    except Exception:
        pixbuf = None
    if pixbuf is None:
        # What a file manager does with a failure: record it, so the file is not tried again.
        factory.create_failed_thumbnail(uri, mtime, None)
        print(path, mime, 'failed', factory.has_valid_failed_thumbnail(uri, mtime))
    else:
        print(path, mime, 'ok', pixbuf.get_width(), pixbuf.get_height())
