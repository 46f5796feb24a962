"""Writes the hostile corpus: every family in a fixed order (the --quick sample depends on it),
then expected.json, and with --fixtures the README.md of Fixtures/hostile."""

import json
import os

from . import archives, blobs, colour, container, formattwo, garbage, hidden, manifest, manifestjson, metadata, names
from . import output, overflow, thumbnails, valid, validmanifest

FAMILIES = (valid.fam_valid, validmanifest.fam_valid_manifest, valid.fam_valid_images, garbage.fam_garbage,
            garbage.fam_truncflip, container.fam_container, hidden.fam_concat, hidden.fam_hidden,
            overflow.fam_overflow, names.fam_names, manifest.fam_manifest, manifestjson.fam_manifest_json,
            blobs.fam_blobs, thumbnails.fam_thumbs, archives.fam_foreign, formattwo.fam_format_two,
            colour.fam_colour, metadata.fam_metadata)

FIXTURES_README = """# Hostile corpus

Files written to attack every command that reads input (`validate`, `info`, `list`, `extract`,
`thumbnail`, `convert`): zip bombs (overlapping entries, high ratios), lying sizes and ZIP64 records,
decompression bombs (huge PNG and JPEG dimensions, zTXt and iCCP bombs), traversal, absolute and
symbolic-link names, duplicate and case-folded names, local and central headers that disagree,
prepended stubs, concatenated archives, end records inside the archive comment, truncated and
garbage images, hostile manifests (deep nesting, huge numbers, duplicate keys, invalid UTF-8), and
foreign archives for `convert` (`a-*`: zip, tar, tar.gz, tar.bz2, tar.xz, CBZ and CBT with traversal,
absolute and option-like names, links, devices, bombs, lying sizes, truncations, garbage), and
format 2.0 galleries (`i-*`) holding each WebP, GIF, AVIF and HEIC file of
`scripts/make-hostile-images.py` (dimension bombs, truncations, grids of thousands of tiles, `ispe`
lies, `iloc` lies, grids short of a tile, an empty `irot`, LZW and frame-count bombs, VP8X canvases
past their frames, box size lies and loops), and hostile colour profiles (`p-*`: tag counts and
offsets out of range, overlapping tags, lookup tables that multiply to gigabytes, truncated and
zero-length profiles, APP2 segments out of sequence, an iCCP zlib bomb, profiles for other pixels),
and hostile image metadata (`e-*`: EXIF directory loops, offsets and counts past the block, XMP
left unclosed or nested 100,000 deep, extended XMP declaring 100 MB, AVIF and HEIC `Exif` items
overlapping the image's data or the meta box, past the end of the file, shared by two images).

`expected.json` gives, for each file, the verdict `validate` must reach (and for `a-*` files the
exit code and image count of `convert FILE OUT.imagegallery`); the docstring of
`scripts/make-hostile-corpus.py` says what each field means.

It is the full corpus of `make hostile` without its files over {limit} KiB ({left} files, {left_mb:.1f} MB,
which `make hostile` still writes and checks), so that it stays near 10 MB: {count} files, {mb:.1f} MB.

Written by `scripts/make-hostile-corpus.py` from the specifications alone; regenerate with

    /usr/bin/python3 scripts/make-hostile-corpus.py Fixtures/hostile --fixtures

Generation is deterministic: a second run gives identical bytes (given the same Pillow, libjpeg-turbo
and zlib builds; these were written with Debian 12's python3-pil 9.4 and zlib 1.2.13). Tests only
read these files, never change them: `scripts/check-hostile-commands.py Fixtures/hostile` runs every
command over each one in a scratch folder (`Tests/IntegrationTests/HostileCorpusTests.swift`).
"""


def run(outdir, quick=False, fixtures=False, large=False):
    """Write the corpus into outdir (see make-hostile-corpus.py for the modes) and print a summary."""
    output.begin(outdir, quick, fixtures, large)
    os.makedirs(outdir, exist_ok=True)
    # remove what an earlier run wrote (and only that)
    earlier = set()
    try:
        with open(os.path.join(outdir, "expected.json")) as f:
            earlier = set(json.load(f))
    except (OSError, ValueError):
        pass
    for fn in os.listdir(outdir):
        if fn in earlier or fn.endswith(".imagegallery") or fn in ("expected.json", "results.json"):
            os.unlink(os.path.join(outdir, fn))
    for fam in FAMILIES:
        fam()
    expected, left_out, limit = output.EXPECTED, output.LEFT_OUT, output.FIXTURE_MAX_BYTES
    with open(os.path.join(outdir, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(outdir, k)) for k in expected)
    if fixtures:
        with open(os.path.join(outdir, "README.md"), "w") as f:
            f.write(FIXTURES_README.format(limit=limit // 1024, left=len(left_out),
                                           left_mb=sum(n for _, n in left_out) / 1e6, count=len(expected),
                                           mb=total / 1e6))
    nvalid = sum(1 for v in expected.values() if v["verdict"] == "valid")
    nunk = sum(1 for v in expected.values() if v.get("verdictUnknown"))
    print(f"{len(expected)} files ({nvalid} valid, {len(expected) - nvalid - nunk} invalid, {nunk} open), "
          f"{total / 1e6:.1f} MB in {outdir}")
    print("families: " + ", ".join(f"{k} {v}" for k, v in sorted(output.COUNTS.items())))
    if left_out:
        print(f"left out (over {limit // 1024} KiB): " + ", ".join(f"{n} ({s / 1e6:.1f} MB)" for n, s in left_out))
