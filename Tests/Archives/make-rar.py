#!/usr/bin/python3
"""Writes a RAR 4 archive of stored (uncompressed) files, for the conversion tests.

Debian main has no RAR writer (rar is non-free), so the tests make their RAR and CBR files
with this, from the format's published technote (RAR 2.x-4.x block layout), and check them
with an independent reader (lsar, from Debian's unar) before importing them.

usage: make-rar.py OUT.rar NAME=PATH [NAME=PATH ...]   (NAME is the name inside the archive)
"""
import struct
import sys
import time
import zlib


def block(head_type, flags, body):
    """A block: HEAD_CRC (low 16 bits of the CRC-32 of what follows it), type, flags, size."""
    header = struct.pack("<BHH", head_type, flags, 7 + len(body)) + body
    return struct.pack("<H", zlib.crc32(header) & 0xFFFF) + header


def dos_time(seconds):
    t = time.gmtime(seconds)
    return ((t.tm_year - 1980) << 25) | (t.tm_mon << 21) | (t.tm_mday << 16) | (t.tm_hour << 11) | (t.tm_min << 5) | (t.tm_sec // 2)


def main():
    out, members = sys.argv[1], sys.argv[2:]
    parts = [b"Rar!\x1a\x07\x00", block(0x73, 0, struct.pack("<HI", 0, 0))]
    for member in members:
        name, path = member.split("=", 1)
        with open(path, "rb") as handle:
            data = handle.read()
        encoded = name.encode("utf-8")
        if any(b > 0x7F for b in encoded):
            # Non-ASCII names need RAR's own Unicode name encoding, which the tests do not use.
            raise SystemExit("make-rar.py: ASCII names only")
        # LONG_BLOCK (the data follows the header); host OS 3 (Unix), so ATTR is the st_mode;
        # version 2.0 to extract; method 0x30 (store).
        body = struct.pack("<IIBIIBBHI", len(data), len(data), 3, zlib.crc32(data), dos_time(1_767_323_045),
                           20, 0x30, len(encoded), 0o100644) + encoded
        parts.append(block(0x74, 0x8000, body) + data)
    parts.append(block(0x7B, 0x4000, b""))
    with open(out, "wb") as handle:
        handle.write(b"".join(parts))


if __name__ == "__main__":
    main()
