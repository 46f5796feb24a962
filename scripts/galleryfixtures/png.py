"""PNG chunks, the pieces both generators assemble their PNGs from (their own encoders, because
Pillow cannot write Adam7, 16-bit RGB or a wrong CRC)."""

import struct

from .compression import crc32

PNG_SIG = b"\x89PNG\r\n\x1a\n"
# Adam7 passes: (first x, first y, x step, y step)
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
# samples per pixel of each colour type
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def png_chunk(t, d, crc=None, length=None):
    """A chunk of type t and data d; `crc` and `length` override the right values."""
    return (struct.pack(">I", len(d) if length is None else length) + t + d
            + struct.pack(">I", crc32(t + d) if crc is None else crc))


def ihdr(w, h, depth=8, ctype=2, interlace=0):
    return png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
