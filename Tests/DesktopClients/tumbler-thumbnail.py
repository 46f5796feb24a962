#!/usr/bin/python3
"""XFCE's tumblerd over D-Bus (org.freedesktop.thumbnails.Thumbnailer1): queues every file and
waits for the answer. Run inside a session bus with tumblerd started, its pid in TUMBLERD_PID.
Prints one line per file:
`URI MIME ready|error:MESSAGE|silent CACHED-THUMBNAIL-OR-none`."""
import hashlib
import os
import sys

from gi.repository import Gio, GLib

paths = [os.path.abspath(p) for p in sys.argv[1:]]
uris = [Gio.File.new_for_path(p).get_uri() for p in paths]
mimes = [Gio.File.new_for_path(p).query_info('standard::content-type', 0, None).get_content_type() for p in paths]
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
NAME = 'org.freedesktop.thumbnails.Thumbnailer1'
# tumblerd takes its name within milliseconds on an idle machine, but CI runs this beside tests
# that keep both cores busy for minutes, and a 5 s wait once ran out there. So wait long, but
# give up at once if the daemon (TUMBLERD_PID, started by the test) has died.
tumblerd = os.environ.get('TUMBLERD_PID')


def tumblerd_gone():
    try:
        with open(f'/proc/{tumblerd}/stat') as stat:
            return stat.read().rsplit(')', 1)[1].split()[0] in ('Z', 'X')
    except (OSError, TypeError):
        return tumblerd is not None


def name_owned():
    reply = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner',
                          GLib.Variant('(s)', (NAME,)), None, Gio.DBusCallFlags.NONE, -1, None)
    return reply[0]


deadline = GLib.get_monotonic_time() + 60 * 1000000
while not name_owned():
    if tumblerd_gone():
        sys.exit(f'tumblerd (pid {tumblerd}) exited before it took its D-Bus name')
    if GLib.get_monotonic_time() > deadline:
        sys.exit('tumblerd did not take its D-Bus name within 60 s')
    GLib.usleep(50000)
# The test starts tumblerd itself; letting the bus also start one (auto-start) makes two daemons
# that take the name from each other, and the loser exits with the Queue call unanswered.
proxy = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.DO_NOT_AUTO_START, None, NAME, '/org/freedesktop/thumbnails/Thumbnailer1',
                               NAME, None)
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
proxy.call_sync('Queue', GLib.Variant('(asasssu)', (uris, mimes, 'normal', 'default', 0)),
                Gio.DBusCallFlags.NO_AUTO_START, -1, None)
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
cache = os.path.join(os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')), 'thumbnails', 'normal')
for uri, mime in zip(uris, mimes):
    thumb = os.path.join(cache, hashlib.md5(uri.encode()).hexdigest() + '.png')
    print(uri, mime, outcome.get(uri, 'silent'), thumb if os.path.exists(thumb) else 'none')
