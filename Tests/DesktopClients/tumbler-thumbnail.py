#!/usr/bin/python3
"""XFCE's tumblerd over D-Bus (org.freedesktop.thumbnails.Thumbnailer1): queues every file and
waits for the answer. Run inside a session bus with tumblerd started. Prints one line per file:
`URI MIME ready|error:MESSAGE|silent CACHED-THUMBNAIL-OR-none`."""
import hashlib
import os
import sys

from gi.repository import Gio, GLib

paths = [os.path.abspath(p) for p in sys.argv[1:]]
uris = [Gio.File.new_for_path(p).get_uri() for p in paths]
mimes = [Gio.File.new_for_path(p).query_info('standard::content-type', 0, None).get_content_type() for p in paths]
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
proxy = None
# The test starts tumblerd itself; letting the bus also start one (auto-start) makes two daemons
# that take the name from each other, and the loser exits with the Queue call unanswered.
for _ in range(50):  # tumblerd takes a moment to own its name
    try:
        proxy = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.DO_NOT_AUTO_START, None, 'org.freedesktop.thumbnails.Thumbnailer1',
                                       '/org/freedesktop/thumbnails/Thumbnailer1',
                                       'org.freedesktop.thumbnails.Thumbnailer1', None)
        if proxy.get_name_owner():
            break
    except GLib.Error:
        pass
    GLib.usleep(100000)
loop = GLib.MainLoop()
outcome = {}


def on_signal(_proxy, _sender, signal, params):
    if signal == 'Ready':
        for uri in params[1]:
            outcome[uri] = 'ready'
    elif signal == 'Error':
        for uri in params[1]:
            outcome[uri] = 'error:' + params[3].replace(' ', '_')
    elif signal == 'Finished':
        loop.quit()


proxy.connect('g-signal', on_signal)
if proxy is None or not proxy.get_name_owner():
    sys.exit('tumblerd did not take its D-Bus name within 5 s')
proxy.call_sync('Queue', GLib.Variant('(asasssu)', (uris, mimes, 'normal', 'default', 0)),
                Gio.DBusCallFlags.NO_AUTO_START, -1, None)
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
cache = os.path.join(os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')), 'thumbnails', 'normal')
for uri, mime in zip(uris, mimes):
    thumb = os.path.join(cache, hashlib.md5(uri.encode()).hexdigest() + '.png')
    print(uri, mime, outcome.get(uri, 'silent'), thumb if os.path.exists(thumb) else 'none')
