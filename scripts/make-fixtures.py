#!/usr/bin/python3
"""Generate the imagegallery test fixtures, deterministically.

usage: make-fixtures.py [--out DIR]          write Fixtures/ (default: <repo>/Fixtures)
       make-fixtures.py --large DIR           write only the large fixtures into DIR
                                              (too big to keep in the repository)
       make-fixtures.py --check [--out DIR]   regenerate in memory and compare byte for
                                              byte with Fixtures/ (exit 1 on a difference)

Writes under Fixtures/:
  images/     10 synthetic sample pictures (JPEG and PNG variants) + README.md
  valid/      galleries in the canonical form of the v1 brief, written by the
              canonical writer (records packed with struct, not zipfile),
              each with a NAME.manifest.json sidecar (the exact manifest bytes)
  tolerant/   galleries a reader MUST accept, written by Python's zipfile
              (and a few by hand) -- i.e. by a different writer
  invalid/     galleries with exactly one structural defect each, named
              <DIAGNOSTIC-ID>-<slug>.imagegallery; invalid/warnings/ holds the
              ones whose defect is only a warning; invalid/content/ the blob and
              thumbnail defects (IG-BLB-*, IG-THM-*) that `validate` finds

Everything is deterministic: no clock, every pseudo-random choice comes from
random.Random seeded with a fixed string, every ZIP timestamp comes from the
manifest's fixed `modified` time. Bytes are stable for a given Python + Pillow +
libjpeg-turbo + zlib build (Debian 12: Python 3.11, python3-pil 9.4,
libjpeg62-turbo 2.1.5, zlib 1.2.13). Running it twice gives identical files.
Only Debian's python3 and python3-pil are needed (no numpy).

The code is the package galleryfixtures beside this script: galleryfixtures/fixtures/ (one
module per folder or kind of defect) and the ZIP writer galleryfixtures/zipwriting.py, shared
with make-hostile-corpus.py.
"""
import argparse
import os
import sys

from galleryfixtures.fixtures import tree


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.join(root, 'Fixtures'),
                    help='folder to write (default: Fixtures/ of this repository)')
    ap.add_argument('--large', metavar='DIR',
                    help='write only the large fixtures (IG-PKG-023, IG-MAN-005) into DIR')
    ap.add_argument('--check', action='store_true',
                    help='regenerate in memory and compare byte for byte with --out')
    args = ap.parse_args()
    if args.large:
        tree.write_large(args.large)
        return 0
    files = tree.generate()
    if args.check:
        return 1 if tree.check(args.out, files) else 0
    tree.write_tree(args.out, files)
    total = sum(len(f.data) for f in files)
    print('wrote %d files, %d bytes, under %s' % (len(files), total, args.out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
