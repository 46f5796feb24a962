"""The hostile corpus's tar writer (ustar headers and pax records built byte by byte, so that sizes,
checksums and names can lie) and the compressed wrappers of tar archives."""

import bz2
import lzma
import zlib

from ..compression import compress_zeros


def tar_header(name, size=0, kind=b"0", link="", mode=0o644, mtime=1795000000, devmajor=0, devminor=0,
               size_field=None):
    """A ustar header block (512 bytes) with a right checksum; `size_field` (12 raw bytes) overrides the size."""
    nb = name.encode("utf-8") if isinstance(name, str) else name
    prefix = b""
    if len(nb) > 100:
        cut = nb.rfind(b"/", 0, 156)
        assert 0 < cut and len(nb) - cut - 1 <= 100, name
        prefix, nb = nb[:cut], nb[cut + 1:]
    lb = link.encode("utf-8")
    h = bytearray(512)

    def put(off, width, b):
        h[off:off + len(b)] = b[:width]

    def octal(v, width):
        return (b"%0*o" % (width - 1, v)) + b"\x00"
    put(0, 100, nb)
    put(100, 8, octal(mode, 8))
    put(108, 8, octal(1000, 8))
    put(116, 8, octal(1000, 8))
    put(124, 12, size_field if size_field is not None else octal(size, 12))
    put(136, 12, octal(mtime, 12))
    put(148, 8, b" " * 8)
    put(156, 1, kind)
    put(157, 100, lb)
    put(257, 8, b"ustar\x0000")
    put(265, 32, b"user")
    put(297, 32, b"group")
    put(329, 8, octal(devmajor, 8))
    put(337, 8, octal(devminor, 8))
    put(345, 155, prefix)
    put(148, 8, b"%06o\x00 " % sum(h))
    return bytes(h)


def tar_member(name, data=b"", **kw):
    kw.setdefault("size", len(data))
    return tar_header(name, **kw) + data + bytes(-len(data) % 512)


def pax_record(key, value):
    body = b" " + key + b"=" + value + b"\n"
    n = len(body) + 1
    while len(str(n).encode()) + len(body) != n:
        n = len(str(n).encode()) + len(body)
    return str(n).encode() + body


def pax_file(name, data):
    rec = pax_record(b"path", name.encode("utf-8"))
    return tar_member("PaxHeader/entry", rec, kind=b"x") + tar_member("placeholder.jpg", data)


def tar(*members, end=True):
    return b"".join(members) + (bytes(1024) if end else b"")


def gz(data):
    c = zlib.compressobj(9, zlib.DEFLATED, 31, 9)      # gzip wrapper, mtime 0: deterministic
    return c.compress(data) + c.flush()


def gz_zeros(n, prefix=b"", suffix=b""):
    """gzip of prefix + n zero bytes + suffix, streamed."""
    return compress_zeros(zlib.compressobj(9, zlib.DEFLATED, 31, 9), n, prefix, suffix)


def bz2_zeros(n, prefix=b"", suffix=b""):
    return compress_zeros(bz2.BZ2Compressor(9), n, prefix, suffix)


def xz(data):
    return lzma.compress(data, format=lzma.FORMAT_XZ, preset=6)
