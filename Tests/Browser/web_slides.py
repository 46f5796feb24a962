"""What the slideshow checks share: flat-colour test photos, a web gallery made of them, one
pixel read from a browser's screenshot, and the page state the slideshow mirrors on <body>.
The standard library only."""

import base64
import json
import struct
import subprocess
import zlib

# Six flat colours far apart, so that a sampled pixel names its slide even through JPEG.
COLOURS = [(220, 30, 30), (30, 180, 40), (40, 60, 220), (230, 210, 30), (200, 40, 200), (30, 200, 210)]
# Larger than the 1,024 px rendition, which a 800 × 600 window at device pixel ratio 1 asks
# for; small enough that a debug build converts six in seconds.
PHOTO_SIZE = (1200, 800)
WINDOW = (800, 600)
BASE_URL = "https://example.org/holiday/"
# Seconds a slide while the order is checked. A slide stands still for about 0.6 s at 1 s a slide
# (the 0.4 s fade, then the next one's decode); with the browser tests side by side, the poll that
# saw it still and the screenshot after it took longer than that, and read a fade.
PLAYING_INTERVAL = "2"

STATE_SCRIPT = """(() => {
  const show = document.getElementById('slideshow');
  const shown = show && show.querySelector('img.slide.shown');
  const tile = document.activeElement && document.activeElement.closest && document.activeElement.closest('.grid a');
  return {readyState: document.readyState, hash: location.hash,
          open: !!show && !show.hidden, slide: document.body.dataset.slide || null,
          mode: document.body.dataset.slideshow || null,
          src: shown ? shown.currentSrc : null, complete: shown ? shown.complete : null,
          caption: show ? show.querySelector('.slideshow-caption').textContent : null,
          status: show ? show.querySelector('[aria-live]').textContent : null,
          focusedTile: tile ? tile.id : null, focusedClass: document.activeElement ? document.activeElement.className : null,
          animations: document.getAnimations().length,
          fullscreen: !!document.fullscreenElement};
})()"""

# The grid's markup as a sharing site or a search engine reads it.
MARKUP_SCRIPT = """(() => {
  const tiles = [...document.querySelectorAll('.grid figure')];
  const data = document.querySelector('script[type="application/ld+json"]');
  const meta = name => { const m = document.querySelector(`meta[property="${name}"], meta[name="${name}"]`);
                         return m ? m.content : null; };
  return {figures: tiles.length,
          figcaptions: tiles.filter(f => f.querySelector('figcaption')).length,
          srcsets: tiles.map(f => f.querySelector('img').getAttribute('srcset') || ''),
          alts: tiles.map(f => f.querySelector('img').alt),
          captions: tiles.map(f => (f.querySelector('figcaption') || {}).textContent || ''),
          lazy: tiles.map(f => f.querySelector('img').loading),
          jsonld: data ? data.textContent : null,
          og: {image: meta('og:image'), title: meta('og:title'), url: meta('og:url'), card: meta('twitter:card')}};
})()"""


def flat_png(path, colour, size=PHOTO_SIZE, description=None):
    """A PNG of one colour, with a Description text chunk (which `create` makes the caption)."""
    width, height = size

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\0" + bytes(colour) * width
    text = chunk(b"tEXt", b"Description\0" + description.encode("latin-1")) if description else b""
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + text
                     + chunk(b"IDAT", zlib.compress(row * height, 1)) + chunk(b"IEND", b""))


def make_web_gallery(imagegallery, folder, base_url=BASE_URL):
    """Six flat-colour photos → a gallery → its web gallery (with `base_url`); returns index.html."""
    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for number, colour in enumerate(COLOURS, 1):
        photo = folder / f"{number}.png"
        flat_png(photo, colour, description=f"Colour {number}")
        photos.append(str(photo))
    gallery = folder / "colours.imagegallery"
    web = folder / "web"
    for arguments in (["create", str(gallery), "--title", "Colours", *photos],
                      ["convert", str(gallery), str(web), "--to", "web", "--base-url", base_url]):
        made = subprocess.run([imagegallery, *arguments], capture_output=True, text=True, timeout=300)
        if made.returncode != 0:
            raise RuntimeError(f"imagegallery {arguments[0]} failed ({made.returncode}): {made.stderr.strip()}")
    return web / "index.html"


def pixel(png):
    """The first pixel of a PNG screenshot clipped to one pixel: with one row and one pixel, every
    PNG filter leaves the bytes as they are, so no unfiltering is needed."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise RuntimeError("the screenshot is not a PNG")
    offset, idat = 8, b""
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        if kind == b"IDAT":
            idat += png[offset + 8:offset + 8 + length]
        offset += 12 + length
    raw = zlib.decompress(idat)
    return tuple(raw[1:4])


def still(state, number):
    """Whether `state` shows slide `number` with its fade finished: what a person sees."""
    return state["open"] and state["slide"] == str(number) and state["complete"] and state["animations"] == 0


def read_while_still(read_pixel, read_state, number):
    """The stage's pixel, read by `read_pixel` after the slideshow was seen still on slide `number`,
    as (colour number, distance); None when `read_state` after the read shows it moved on, since
    then the pixel may be part of a fade."""
    rgb = read_pixel()
    return nearest(rgb) if still(read_state(), number) else None


def nearest(rgb):
    """The number (1-based) of the colour `rgb` is closest to, and how far it is."""
    distances = [sum((a - b) ** 2 for a, b in zip(rgb, colour)) ** 0.5 for colour in COLOURS]
    best = min(range(len(COLOURS)), key=distances.__getitem__)
    return best + 1, distances[best]


def chromium_pixel(tab, x, y):
    data = tab.call("Page.captureScreenshot", {"format": "png", "clip": {"x": x, "y": y, "width": 1, "height": 1, "scale": 1}})
    return pixel(base64.b64decode(data["data"]))


def firefox_pixel(firefox, x, y):
    data = firefox.command("browsingContext.captureScreenshot",
                           {"context": firefox.context, "clip": {"type": "box", "x": x, "y": y, "width": 1, "height": 1}})
    return pixel(base64.b64decode(data["data"]))


def check_json_ld(text, count, base_url):
    """Problems with the index's JSON-LD: an ImageGallery of `count` ImageObjects (relative addresses),
    the gallery's own address `base_url`."""
    problems = []
    data = json.loads(text)
    if data.get("@type") != "ImageGallery" or data.get("@context") != "https://schema.org":
        problems.append(f"JSON-LD is not a schema.org ImageGallery: {text[:200]}")
    if data.get("url") != base_url:
        problems.append(f"JSON-LD url {data.get('url')!r}, not {base_url!r}")
    media = data.get("associatedMedia") or []
    if len(media) != count:
        problems.append(f"JSON-LD lists {len(media)} images, not {count}")
    for number, item in enumerate(media, 1):
        missing = [key for key in ("contentUrl", "thumbnailUrl", "width", "height", "caption") if key not in item]
        if item.get("@type") != "ImageObject" or missing:
            problems.append(f"JSON-LD image {number}: {item.get('@type')}, missing {missing}")
        elif item["contentUrl"] != f"images/{number:03d}.png" or item["caption"] != f"Colour {number}":
            problems.append(f"JSON-LD image {number}: {item['contentUrl']}, {item['caption']!r}")
    return problems
