#!/usr/bin/python3
"""Write a copy of a HEIF file whose primary item carries a colr box of type nclx.

Usage: heif-colour.py INPUT OUTPUT MATRIX FULL_RANGE

MATRIX is an H.273 matrix_coefficients value, FULL_RANGE 0 or 1 (primaries and transfer are
written as 2, unspecified). libheif 1.15's heif-enc writes no colr box (its macOS workaround is
on by default), so a test that needs libheif to read the matrix and range from one makes it
here, from heif-enc's output. Any colr box the item had is replaced. Standard library only;
the box reader and writer are make-hostile-images.py's.
"""

import importlib.util
import struct
import sys
from pathlib import Path


def main(argv):
    if len(argv) != 5 or argv[4] not in ("0", "1"):
        sys.exit(__doc__)
    spec = importlib.util.spec_from_file_location("hostile", Path(__file__).with_name("make-hostile-images.py"))
    hostile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hostile)
    heif = hostile.Heif.parse(Path(argv[1]).read_bytes())
    nclx = hostile.box(b"colr", b"nclx" + struct.pack(">HHHB", 2, 2, int(argv[3]), 0x80 if argv[4] == "1" else 0))
    item = heif.items[heif.primary]
    item.props = [(p, e) for p, e in item.props if p[4:8] != b"colr"] + [(nclx, False)]
    Path(argv[2]).write_bytes(heif.build())


if __name__ == "__main__":
    main(sys.argv)
