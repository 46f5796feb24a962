"""Checksums and compressed streams: raw deflate, streams of zeros of any length (bombs), and a
deflate stream of an exact ratio."""

import functools
import random
import struct
import zlib


def crc32(b):
    return zlib.crc32(b) & 0xFFFFFFFF


def deflate(data, level=6, strategy=zlib.Z_DEFAULT_STRATEGY):
    """Raw deflate (no zlib header), as ZIP method 8 stores it."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, strategy)
    return c.compress(data) + c.flush()


def compress_zeros(c, n, prefix=b"", suffix=b""):
    """prefix + n zero bytes + suffix through the compressor c, streamed (n may be huge)."""
    out = [c.compress(prefix)]
    z = bytes(1 << 20)
    left = n
    while left > 0:
        k = min(left, len(z))
        out.append(c.compress(z if k == len(z) else bytes(k)))
        left -= k
    out.append(c.compress(suffix))
    out.append(c.flush())
    return b"".join(out)


@functools.lru_cache(maxsize=8)
def deflate_zeros(n, level=9, prefix=b"", suffix=b""):
    """Raw deflate of prefix + n zero bytes + suffix, streamed (n may be huge)."""
    return compress_zeros(zlib.compressobj(level, zlib.DEFLATED, -15, 9), n, prefix, suffix)


def crc_zeros(n, prefix=b"", suffix=b"", chunk=1 << 20):
    c = zlib.crc32(prefix)
    z = bytes(chunk)
    left = n
    while left > 0:
        k = min(left, chunk)
        c = zlib.crc32(z if k == chunk else bytes(k), c)
        left -= k
    return zlib.crc32(suffix, c) & 0xFFFFFFFF


def ratio_exact(ratio, r=20000):
    """(data, raw deflate stream) with len(data) == ratio * len(stream) exactly, data > 1 MiB:
    random bytes and zeros compressed and flushed to a byte boundary, then a final STORED block
    whose length makes the ratio exact."""
    pre = random.Random("ratio").randbytes(r)
    z0 = (ratio * (r + 5)) - r
    for _ in range(200000):
        co = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
        head = co.compress(pre) + co.compress(bytes(z0)) + co.flush(zlib.Z_FULL_FLUSH)
        rhs = r + z0 - ratio * (len(head) + 5)
        if rhs >= 0 and rhs % (ratio - 1) == 0 and rhs // (ratio - 1) <= 0xFFFF:
            k = rhs // (ratio - 1)
            payload = head + struct.pack("<BHH", 1, k, k ^ 0xFFFF) + bytes(k)
            data = pre + bytes(z0 + k)
            assert len(data) == ratio * len(payload) and len(data) > (1 << 20)
            assert zlib.decompress(payload, -15) == data
            return data, payload
        if rhs < 0:
            z0 += max(1, -rhs // 2)
        elif rhs // (ratio - 1) > 0xFFFF:
            z0 -= max(1, (rhs - 1000 * ratio) // 2)
        else:
            z0 += 1
    raise RuntimeError("no exact ratio found")
