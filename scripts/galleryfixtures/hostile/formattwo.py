"""Family i-: galleries of format 2.0 (issue 18), one for each file make-hostile-images.py writes
(valid samples and hostile WebP, GIF, AVIF and HEIC: dimension bombs, truncations, grids of
thousands of tiles, ispe lies, LZW and frame-count bombs, VP8X canvases past their frames, box
size lies and loops), so that check-hostile-commands.py runs every command over each decoder
under its memory cap.

Each gallery is "2.0" and holds the one image, and its thumbnail.png is a 1 x 1 grey PNG
(conforming: a validator does not check what a thumbnail depicts, section 7): smaller than the
256 px the commands ask for, so that `thumbnail` decodes the image itself. A valid sample's
record is valid with --deep (its pixels decode); a hostile image's verdict is left open here
(the spec lets a decoder refuse it or stop within its limits, which --deep reports as the
IG-BLB-009 warning), because HostileImageTests holds every decoder to make-hostile-images.py's
own verdict file by file: what this family adds is the commands' clean ends, memory and time.
A file the generator marks as refused by the header reader (an iloc extent of 4 GiB, a grid short
of a tile, an empty irot: issue 28) has a verdict: invalid, BLB, its id, found without --deep.
"""

import functools
import hashlib
import importlib.util
from pathlib import Path

from .gallery import G
from .images import make_png
from .output import U, V, X, want

MEDIA = {"webp": "image/webp", "gif": "image/gif", "avif": "image/avif", "heic": "image/heic"}


class Collector:
    """Stands in for make-hostile-images.py's Output: keeps the files instead of writing them."""

    def __init__(self):
        self.files = []

    def add(self, name, data, verdict, why, size=None, header_id=None):
        self.files.append((name, bytes(data), verdict, why, size, header_id))


@functools.lru_cache(maxsize=None)
def images():
    path = Path(__file__).resolve().parents[2] / "make-hostile-images.py"
    spec = importlib.util.spec_from_file_location("make_hostile_images", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = Collector()
    for family in (module.samples_and_truncations, module.webp_files, module.gif_files, module.heif_files,
                   module.large_gif_files):
        family(out)
    return tuple(out.files)


def fam_format_two():
    thumbnail = make_png(1, 1, 8, 2, 0, None, 128)
    for index, (name, data, verdict, why, size, header_id) in enumerate(images()):
        # --quick keeps every eighth file (and every valid sample): each type and family shows.
        if not want(verdict == "valid" or index % 8 == 0):
            continue
        stem, ext = name.rsplit(".", 1)
        g = G(f"format-two:{name}", imgs=())
        g.m["formatVersion"] = "2.0"
        sha = hashlib.sha256(data).hexdigest()
        # A hostile image's manifest size is 1 x 1: its header may not read, and the decoders
        # read the size from the blob, not the manifest.
        width, height = size if size else (1, 1)
        g.m["images"].append(dict(id="00000000-0000-4000-8000-%012d" % index, path=f"images/{sha}.{ext}",
                                  mediaType=MEDIA[ext], width=width, height=height, byteSize=len(data),
                                  sha256=sha))
        g.blobs[f"images/{sha}.{ext}"] = data
        g.thumb = thumbnail
        gallery = g.zip()
        note = f"{name} from make-hostile-images.py: {why}"
        if verdict == "valid":
            V(f"i-{stem}-{ext}", gallery, note, deep=True, family="format-two", q=True)
        elif header_id:
            # Refused by the header reader, without decoding: validate says so without --deep.
            X(f"i-{stem}-{ext}", gallery, "BLB", ids=[header_id], note=note + f" (the box reader refuses it: {header_id})",
              family="format-two", q=True)
        else:
            # validate --deep of the large GIFs would decode a gigapixel: its 1-gigapixel limit
            # is the deep check's own, and the thumbnail paths' CPU bound is what they test.
            large = name.startswith("gif-large-")
            U(f"i-{stem}-{ext}", gallery, note + (" (verdict open here)" if large else " (verdict open here; "
              "HostileImageTests holds the decoder to 'refused')"), deep=not large, family="format-two", q=not large)
