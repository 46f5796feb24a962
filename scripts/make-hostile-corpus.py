#!/usr/bin/python3
"""Write a corpus of hostile and tricky .imagegallery files, with expected verdicts.

Usage: make-hostile-corpus.py OUTDIR [--quick | --fixtures]

    (none)      the full corpus (about 1,140 files, 64 MB) for `make hostile`
    --quick     a small subset (about 130 files) in a few seconds, for `make test`
    --fixtures  the committed corpus, Fixtures/hostile: the full corpus without its files over
                300 KiB (about 1,130 files, 12 MB), and a README.md saying how it was made
    --large     the files --fixtures leaves out (about 18, 54 MB): HostileCorpusTests writes
                them during the test run, so that make test covers the whole corpus

Written from Specs/imagegallery-format.md, Specs/diagnostics.md, Specs/manifest.schema.json and
Specs/conversion.md alone (its cases independently of scripts/make-fixtures.py; the i- images
are make-hostile-images.py's, written from the same specs), with hand-made ZIP and tar writers so
that every byte is under control. The code is the package galleryfixtures beside
this script: the ZIP writer galleryfixtures/zipwriting.py (shared with make-fixtures.py), the
families in galleryfixtures/hostile/, one module per family or group of families.

OUTDIR/expected.json maps each file name to
  {"verdict": "valid"|"invalid", "category": "PKG"|"MAN"|"BLB"|"THM"|null,
   "ids": [acceptable ids of the first error/fatal], "deep": bool,
   "family": str, "note": str,
   optional "categories": [acceptable categories of the first error/fatal],
   optional "categoryUnknown": true  (invalid, but the first category is not predictable),
   optional "verdictUnknown": true   (the spec leaves the verdict open: only crash/hang/memory count),
   optional "convert": {"exit": [codes], "images": N or null, "outside": [paths]},
   optional "known": {command: why},
   optional "extractFiles": N  (extract writes N files: its time bound grows by check-hostile-commands.py's --per-file-ms each)}

What the expected outcome means:
  verdict, category, ids  what `imagegallery validate --format json [--deep]` must report: the
                   verdict, the category of the first error or fatal finding, and (informative) its
                   id; check-hostile-corpus.py compares them.
  every file       whatever the verdict, every command that reads input (validate, info, list,
                   extract, thumbnail, convert) must end with a clean result, a verdict or a clear
                   error (exit 65 naming the file), within its bounds (256 MB, a few seconds) and
                   writing nothing outside its output: check-hostile-commands.py checks that. A
                   file valid without --deep must also be read by info, list, extract and convert.
  convert          foreign archives (the a-* files: zip, tar, tar.gz, tar.bz2, tar.xz, CBZ, CBT,
                   for the libarchive importer) are not galleries (validate: invalid, PKG); their
                   record says how `convert FILE OUT.imagegallery` must end: an exit code from
                   "exit" (0, or 65 for a bomb, a damaged archive or no image; both where the spec
                   allows either), a gallery of "images" images when it is a number (null: not
                   predictable), and none of the "outside" paths written (where an entry name,
                   link or option-like name would put a file if it were ever used as a path).
  known            a known issue, listed by check-hostile-commands.py on every run instead of
                   counted: for now only the time extract needs to flush tens of thousands of files.

Families (file name prefixes): v- valid in the forms readers must tolerate (9.1); g- garbage;
t- truncations; f- bit flips; c- container attacks (zip bombs by ratio and by overlapping entries,
lying sizes, ZIP64 abuse, mimetype rules, prepended stubs, concatenated archives, end records
inside the archive comment, local headers and bytes no central record accounts for, which only a
streaming reader sees); o- 16/32/64-bit overflows; n- entry names (traversal, absolute,
links, devices, duplicates, case folding, encodings); m- manifests (types, limits, deep nesting,
huge numbers, duplicate keys, invalid UTF-8, syntax); b- blobs against the manifest; d- --deep
pixel decoding (decompression bombs, truncated and garbage images); u- open verdicts; a- foreign
archives for convert; i- format 2.0 galleries, one for each WebP, GIF, AVIF and HEIC file of
make-hostile-images.py (galleryfixtures/hostile/formattwo.py says how); p- hostile colour
profiles (galleryfixtures/hostile/colour.py); e- hostile image metadata, EXIF, XMP and AVIF and
HEIC metadata items, in images whose pixels are fine (galleryfixtures/hostile/metadata.py).

Output is deterministic: every random choice comes from random.Random seeded with a fixed string,
and archives carry fixed times (given the same Pillow, libjpeg-turbo and zlib builds).
"""

import sys

from galleryfixtures.hostile import corpus


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = [a for a in argv[1:] if a.startswith("--")]
    if len(args) != 1 or any(o not in ("--quick", "--fixtures", "--large") for o in opts) or len(set(opts)) > 1:
        sys.stderr.write(__doc__)
        return 2
    corpus.run(args[0], quick="--quick" in opts, fixtures="--fixtures" in opts, large="--large" in opts)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
