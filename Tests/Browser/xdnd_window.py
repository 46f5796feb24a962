#!/usr/bin/python3
"""Another application on the X desktop, for real XDND drags (GTK 3, python3-gi).

    xdnd_window.py source FILE X Y SIZE   a window offering FILE by drag, as a file manager does
                                          (text/uri-list, file://...)
    xdnd_window.py target FOLDER X Y SIZE a window that accepts drops, as a file manager's folder
                                          does, and saves what it was given into FOLDER

Each prints one JSON line when its window is mapped ({"ready": true, "window": X id}); the
target then prints {"motion": true, "targets": [...]} when a drag first moves over it (it has
answered the source, which may now drop), and one JSON line per drop: the targets offered, the
action, and what it got
({"drop": ..., "targets": [...], "uris": [...], "saved": [...], "directSave": ...}).

The target takes a file the way Nautilus does: XdndDirectSave0 when the source offers it (the
target names a file in FOLDER on the source window; the source answers "S" and writes it there,
as Firefox does, or "F" and the target saves the application/octet-stream it then asks for, as
Chromium wants), else text/uri-list, whose local files it copies into FOLDER.
"""

import ctypes
import ctypes.util
import json
import os
import shutil
import sys
import urllib.parse
import warnings
from pathlib import Path

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
gi.require_version("GdkX11", "3.0")
from gi.repository import Gdk, GdkX11, GLib, Gtk  # noqa: E402,F401  (GdkX11: a window's X id)


class X:
    """Another window's property, read and written with Xlib on a connection of our own: PyGObject
    cannot call gdk_property_get (its out-arguments are caller-allocated)."""

    def __init__(self):
        self.lib = ctypes.CDLL(ctypes.util.find_library("X11"))
        self.lib.XOpenDisplay.restype = ctypes.c_void_p
        self.lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.lib.XInternAtom.restype = ctypes.c_ulong
        self.lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.lib.XGetWindowProperty.argtypes = [
            ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long, ctypes.c_int,
            ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p)]
        self.lib.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                                             ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        self.lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.lib.XFree.argtypes = [ctypes.c_void_p]
        self.display = self.lib.XOpenDisplay(None)

    def atom(self, name):
        return self.lib.XInternAtom(self.display, name.encode(), 0)

    def get(self, window, name, kind):
        actual, fmt, count, after, data = (ctypes.c_ulong(), ctypes.c_int(), ctypes.c_ulong(), ctypes.c_ulong(),
                                           ctypes.c_void_p())
        status = self.lib.XGetWindowProperty(self.display, window, self.atom(name), 0, 4096, 0, self.atom(kind),
                                             ctypes.byref(actual), ctypes.byref(fmt), ctypes.byref(count),
                                             ctypes.byref(after), ctypes.byref(data))
        if status != 0 or not data.value:
            return None
        value = ctypes.string_at(data.value, count.value) if fmt.value == 8 else None
        self.lib.XFree(data)
        return value

    def set(self, window, name, kind, value):
        self.lib.XChangeProperty(self.display, window, self.atom(name), self.atom(kind), 8, 0, value, len(value))
        self.lib.XSync(self.display, 0)


warnings.simplefilter("ignore", DeprecationWarning)


def say(message):
    print(json.dumps(message), flush=True)


def window(title, x, y, size, colour):
    win = Gtk.Window(title=title)
    win.set_default_size(size, size)
    win.move(x, y)
    win.set_decorated(False)
    area = Gtk.EventBox()
    label = Gtk.Label(label=title)
    area.add(label)
    area.override_background_color(Gtk.StateFlags.NORMAL, Gdk.RGBA(*colour))
    win.add(area)
    win.connect("destroy", Gtk.main_quit)
    return win, area


def announce(win):
    def mapped(*_):
        GLib.timeout_add(200, lambda: say({"ready": True, "window": win.get_window().get_xid()}) and False)
    win.connect("map-event", mapped)


def source(path, x, y, size):
    uri = Path(path).resolve().as_uri()
    win, area = window("Photo source", x, y, size, (0.8, 0.9, 1.0, 1.0))
    area.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
    targets = Gtk.TargetList.new([])
    targets.add_uri_targets(0)
    area.drag_source_set_target_list(targets)

    def give(_widget, _context, data, _info, _time):
        data.set_uris([uri])
        say({"gave": [uri]})

    def ended(_widget, context):
        say({"dragEnded": True})

    area.connect("drag-data-get", give)
    area.connect("drag-end", ended)
    announce(win)
    win.show_all()
    Gtk.main()


DIRECT_SAVE = "XdndDirectSave0"


class DropTarget:
    """A drop target's state across a drag: what it was offered, what it asked for, what came."""

    def __init__(self, folder):
        self.folder = folder
        self.xlib = X()
        folder.mkdir(parents=True, exist_ok=True)
        self.pending = {}

    def motion(self, _widget, context, _x, _y, time):
        Gdk.drag_status(context, Gdk.DragAction.COPY, time)
        if self.pending.get("motion") is not context:  # once a drag: the caller waits for it before letting go
            self.pending["motion"] = context
            say({"motion": True, "targets": [atom.name() for atom in context.list_targets()]})
        return True

    def drop(self, widget, context, _x, _y, time):
        names = [atom.name() for atom in context.list_targets()]
        record = {"drop": True, "targets": names, "action": int(context.get_suggested_action()),
                  "uris": [], "saved": [], "directSave": None, "texts": {}}
        self.pending["record"] = record
        self.pending["context"] = context
        self.pending["time"] = time
        wanted = []
        if DIRECT_SAVE in names:
            self.offer_direct_save(context, record)
            wanted.append(DIRECT_SAVE)
        for name in ("text/uri-list", "text/x-moz-url", "application/x-moz-file-promise-url",
                     "application/x-moz-file-promise-dest-filename", "DownloadURL", "text/plain"):
            if name in names:
                wanted.append(name)
        self.pending["wanted"] = list(wanted)
        if not wanted:
            self.finish(False)
            return True
        for name in wanted:
            widget.drag_get_data(context, Gdk.Atom.intern(name, False), time)
        return True

    def offer_direct_save(self, context, record):
        """XdndDirectSave: the source's suggested name is a property on its window; we answer with
        the full URI of a file in our folder, then ask for the XdndDirectSave0 target."""
        source_window = context.get_source_window().get_xid()
        suggested = (self.xlib.get(source_window, DIRECT_SAVE, "text/plain") or b"").decode(errors="replace")
        record["suggested"] = suggested
        name = os.path.basename(suggested) or "dropped"
        destination = (self.folder / name).as_uri()
        record["directSaveTo"] = destination
        self.xlib.set(source_window, DIRECT_SAVE, "text/plain", destination.encode())

    def received(self, widget, context, _x, _y, data, _info, time):
        record = self.pending.get("record")
        if record is None:
            return
        name = data.get_target().name()
        raw = data.get_data() or b""
        self.keep(widget, context, time, record, name, raw)
        if name in self.pending["wanted"]:
            self.pending["wanted"].remove(name)
        if not self.pending["wanted"]:
            self.finish(True)

    def keep(self, widget, context, time, record, name, raw):
        """Put what came for the target NAME in the record, or ask for the bytes it stands for."""
        if name == DIRECT_SAVE:
            record["directSave"] = bytes(raw).decode(errors="replace")
            # "S": the source writes the file, perhaps later (Firefox downloads it): the caller waits for it.
            if record["directSave"] == "S":
                record["saved"].append(urllib.parse.unquote(urllib.parse.urlparse(record["directSaveTo"]).path))
            # "F": the source asks the target to save the bytes itself, from application/octet-stream
            # (the XDS fallback; Chromium gives an image so, and Nautilus takes it so).
            elif record["directSave"] == "F" and "application/octet-stream" in record["targets"]:
                self.pending["wanted"].append("application/octet-stream")
                widget.drag_get_data(context, Gdk.Atom.intern("application/octet-stream", False), time)
        elif name == "application/octet-stream":
            local = Path(urllib.parse.unquote(urllib.parse.urlparse(record["directSaveTo"]).path))
            local.write_bytes(bytes(raw))
            record["saved"].append(str(local))
            record["octetStream"] = len(raw)
        elif name == "text/uri-list":
            uris = [line.strip() for line in bytes(raw).decode(errors="replace").splitlines()
                    if line.strip() and not line.startswith("#")]
            record["uris"] = uris
        else:
            record["texts"][name] = bytes(raw).decode("utf-16" if name == "text/x-moz-url" else "utf-8",
                                                      errors="replace")[:2000]

    def finish(self, success):
        record = self.pending.pop("record")
        context = self.pending.pop("context")
        # A file offered by URI is copied in, as a file manager's folder would copy it.
        if not record["saved"]:
            for uri in record["uris"]:
                parsed = urllib.parse.urlparse(uri)
                if parsed.scheme == "file":
                    local = Path(urllib.parse.unquote(parsed.path))
                    if local.is_file():
                        copy = self.folder / local.name
                        shutil.copyfile(local, copy)
                        record["saved"].append(str(copy))
        Gtk.drag_finish(context, success and bool(record["saved"]), False, self.pending.pop("time"))
        say(record)


def target(folder, x, y, size):
    drop_target = DropTarget(Path(folder))
    win, area = window("Drop target", x, y, size, (1.0, 0.95, 0.8, 1.0))
    area.drag_dest_set(0, [], Gdk.DragAction.COPY | Gdk.DragAction.MOVE | Gdk.DragAction.LINK)
    area.connect("drag-motion", drop_target.motion)
    area.connect("drag-drop", drop_target.drop)
    area.connect("drag-data-received", drop_target.received)
    announce(win)
    win.show_all()
    Gtk.main()


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ("source", "target"):
        sys.exit(__doc__)
    mode, path, x, y, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    (source if mode == "source" else target)(path, x, y, size)


if __name__ == "__main__":
    main()
