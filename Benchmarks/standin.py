#!/usr/bin/python3
"""Write a stand-in .imagegallery with Python's zipfile, for `run.sh --anchors-only`.

usage: standin.py OUT.imagegallery SRC_DIR TITLE

It has the shape `imagegallery create` gives (see /tmp/brief.md, "Container"):
`mimetype` (stored), `manifest.json` (deflated, level 6, canonical JSON), a
placeholder grey `thumbnail.png` (stored), then `images/<sha256>.jpg|png`
(stored), one per distinct file of SRC_DIR in natural name order. It exists
only so that the anchor tools (unzip -p, unzip -l, unzip -d) can be timed on a
file of the right size and entry count before the Swift tool can write one;
figures measured on it are labelled as such in RESULTS.md.
Deterministic: ids are UUIDv5 of the content, timestamps fixed.
"""
import hashlib
import io
import json
import os
import re
import sys
import uuid
import zipfile

from PIL import Image

DATE = "2026-01-01T00:00:00Z"
ZDATE = (2026, 1, 1, 0, 0, 0)
NS = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")  # the RFC 9562 URL namespace


def natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def zinfo(name, method):
    zi = zipfile.ZipInfo(name, ZDATE)
    zi.compress_type = method
    zi.create_system = 3
    zi.external_attr = 0o100644 << 16
    zi.flag_bits |= 0x800
    return zi


def main():
    out, src, title = sys.argv[1], sys.argv[2], sys.argv[3]
    names = sorted((n for n in os.listdir(src) if not n.startswith(".")), key=natural_key)
    images, blobs = [], {}
    for n in names:
        p = os.path.join(src, n)
        with open(p, "rb") as fh:
            data = fh.read()
        if data[:3] == b"\xff\xd8\xff":
            mt, ext = "image/jpeg", "jpg"
        elif data[:8] == b"\x89PNG\r\n\x1a\n":
            mt, ext = "image/png", "png"
        else:
            continue
        h = hashlib.sha256(data).hexdigest()
        with Image.open(io.BytesIO(data)) as im:
            w, ht = im.size
        path = f"images/{h}.{ext}"
        blobs.setdefault(path, data)
        images.append({"id": str(uuid.uuid5(NS, f"{len(images)}:{h}")), "path": path,
                       "mediaType": mt, "width": w, "height": ht, "byteSize": len(data),
                       "sha256": h, "filename": n})
    doc_id = uuid.uuid5(NS, title + DATE + "".join(i["sha256"] for i in images))
    manifest = {"format": "imagegallery", "formatVersion": "1.0", "id": str(doc_id),
                "revision": str(uuid.uuid5(doc_id, "revision")), "title": title,
                "created": DATE, "modified": DATE, "generator": "Benchmarks/standin.py",
                "images": images}
    mbytes = (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    if images:
        w, h = images[0]["width"], images[0]["height"]
        size = (256, max(1, round(256 * h / w))) if w >= h else (max(1, round(256 * w / h)), 256)
    else:
        size = (256, 256)
    tb = io.BytesIO()
    Image.new("RGB", size, (128, 128, 128)).save(tb, "PNG")
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w") as z:
        z.writestr(zinfo("mimetype", zipfile.ZIP_STORED), b"application/vnd.imagegallery+zip")
        z.writestr(zinfo("manifest.json", zipfile.ZIP_DEFLATED), mbytes, compresslevel=6)
        z.writestr(zinfo("thumbnail.png", zipfile.ZIP_STORED), tb.getvalue())
        for path, data in blobs.items():
            z.writestr(zinfo(path, zipfile.ZIP_STORED), data)
    os.replace(tmp, out)
    print(f"stand-in {out}: {len(images)} images, {len(blobs)} blobs, manifest {len(mbytes):,} bytes, "
          f"{os.path.getsize(out):,} bytes", flush=True)


if __name__ == "__main__":
    main()
