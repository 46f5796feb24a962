#!/usr/bin/python3
"""Write a HEIC laid out as phones write their photos: a grid of 512 x 512 HEVC tiles (issue 28).

Usage: make-grid-heic.py OUT.heic WIDTH HEIGHT [--tile N] [--irot N] [--imir AXIS] [--avif] [--damage]

The picture is drawn with Pillow (gradients, bars and a grid of lines, so that a tile out of
place or a wrong crop shows), cut into tiles of N x N (default 512; the last row and column
padded with the edge's pixels), and the tiles are coded in one heif-enc run (Debian 12's
heif-enc 1.15 cannot write grids, so each tile is a top-level image of that file). Their
`hvcC` and coded data are then laid out again as an iPhone lays out its HEICs: the tiles are
hidden `hvc1` items 1 to N sharing one `hvcC` and one `ispe`, the primary item is a `grid`
whose eight or twelve bytes (rows, columns, output size) are in `idat` (iloc version 1,
construction method 1), listing the tiles with `dimg` in row order, with the output size in
its own `ispe` and, if asked, `irot` and `imir` on the grid item. With --avif the tiles are
coded by heif-enc's AV1 encoder instead and the file is an AVIF grid. With --damage the first
tile's coded bytes are all 0xFF: a file sound in every box whose pixels cannot be decoded.

Deterministic (no randomness, no clock). WIDTH x HEIGHT of 6000 x 4000 (24 MP, 96 tiles)
takes about 10 s and writes about 3 MB. Writes OUT.heic only (and removes its scratch folder).
"""

import argparse
import importlib.util
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("make_hostile_images", HERE / "make-hostile-images.py")
hostile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hostile)
box, full_box, ispe, be16, be32 = hostile.box, hostile.full_box, hostile.ispe, hostile.be16, hostile.be32


def picture(width, height):
    """A picture with structure everywhere: a red ramp across, a green ramp down, blue rings,
    bars of solid colour and a 64-pixel grid of lines (so misplaced tiles and crops show)."""
    red = Image.linear_gradient("L").rotate(90, expand=True).transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    red = red.resize((width, height), Image.Resampling.BILINEAR)
    green = Image.linear_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    blue = Image.radial_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    image = Image.merge("RGB", (red, green, blue))
    draw = ImageDraw.Draw(image)
    colours = [(230, 30, 30), (30, 200, 60), (40, 60, 220), (240, 220, 40), (250, 250, 250), (10, 10, 10)]
    bar = max(width // 9, 1)
    for i, colour in enumerate(colours):
        draw.rectangle([i * bar + bar // 2, height // 3, i * bar + bar, height // 3 + height // 6], fill=colour)
    for x in range(0, width, 64):
        draw.line([(x, 0), (x, height - 1)], fill=(255, 255, 255) if (x // 64) % 2 else (0, 0, 0), width=3)
    for y in range(0, height, 64):
        draw.line([(0, y), (width - 1, y)], fill=(0, 0, 0) if (y // 64) % 2 else (255, 255, 255), width=3)
    draw.ellipse([width // 4, height // 4, width * 3 // 4, height * 3 // 4], outline=(255, 128, 0), width=24)
    return image


def grid_payload(rows, columns, width, height):
    wide = width > 0xFFFF or height > 0xFFFF
    dims = (be32(width) + be32(height)) if wide else (be16(width) + be16(height))
    return bytes([0, int(wide), rows - 1, columns - 1]) + dims


def build(brands, hdlr, kind, tiles, tile_size, rows, columns, width, height, irot, imir):
    """The file. tiles: [(configuration property bytes, pixi property bytes or None, coded data)] in row order."""
    grid_id = len(tiles) + 1
    properties = []

    def index(prop):
        if prop not in properties:
            properties.append(prop)
        return properties.index(prop) + 1

    associations = []
    for i, (configuration, pixi, _) in enumerate(tiles, start=1):
        associations.append((i, [(index(configuration), True), (index(ispe(tile_size, tile_size)), False)]
                             + ([(index(pixi), False)] if pixi else [])))
    grid_props = [(index(ispe(width, height)), False)]
    if tiles[0][1]:
        grid_props.append((index(tiles[0][1]), False))
    if irot:
        grid_props.append((index(box(b"irot", bytes([irot & 3]))), True))
    if imir is not None:
        grid_props.append((index(box(b"imir", bytes([imir & 1]))), True))
    associations.append((grid_id, grid_props))

    payload = grid_payload(rows, columns, width, height)
    idat = box(b"idat", payload)
    infe = b"".join(full_box(b"infe", 2, 1, be16(i) + be16(0) + kind + b"\0") for i in range(1, len(tiles) + 1))
    infe += full_box(b"infe", 2, 0, be16(grid_id) + be16(0) + b"grid" + b"\0")
    iinf = full_box(b"iinf", 0, 0, be16(len(tiles) + 1) + infe)
    iref = full_box(b"iref", 0, 0, box(b"dimg", be16(grid_id) + be16(len(tiles))
                                       + b"".join(be16(i) for i in range(1, len(tiles) + 1))))
    ipma = bytearray(be32(len(associations)))
    for item, indices in associations:
        ipma += be16(item) + bytes([len(indices)])
        for k, essential in indices:
            assert k < 128
            ipma += bytes([k | (0x80 if essential else 0)])
    iprp = box(b"iprp", box(b"ipco", b"".join(properties)) + full_box(b"ipma", 0, 0, bytes(ipma)))
    pitm = full_box(b"pitm", 0, 0, be16(grid_id))
    ftyp = box(b"ftyp", brands[0] + be32(0) + b"".join(brands[1]))

    def meta_box(data_start):
        # iloc version 1: offset, length and base offset 4 bytes, no index; the grid in idat.
        entries, offset = bytearray(), data_start
        for i, (_, _, data) in enumerate(tiles, start=1):
            entries += be16(i) + be16(0) + be16(0) + be32(0) + be16(1) + be32(offset) + be32(len(data))
            offset += len(data)
        entries += be16(grid_id) + be16(1) + be16(0) + be32(0) + be16(1) + be32(0) + be32(len(payload))
        iloc = full_box(b"iloc", 1, 0, bytes([0x44, 0x40]) + be16(len(tiles) + 1) + bytes(entries))
        return full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp + idat)

    data = b"".join(d for _, _, d in tiles)
    size = len(meta_box(0))
    meta = meta_box(len(ftyp) + size + 8)
    assert len(meta) == size
    return ftyp + meta + be32(8 + len(data)) + b"mdat" + data


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output")
    parser.add_argument("width", type=int)
    parser.add_argument("height", type=int)
    parser.add_argument("--tile", type=int, default=512)
    parser.add_argument("--irot", type=int, default=0)
    parser.add_argument("--imir", type=int, choices=(0, 1))
    parser.add_argument("--avif", action="store_true")
    parser.add_argument("--damage", action="store_true")
    args = parser.parse_args()
    size = args.tile
    columns, rows = -(-args.width // size), -(-args.height // size)
    image = picture(args.width, args.height)
    padded = Image.new("RGB", (columns * size, rows * size))
    padded.paste(image, (0, 0))
    # The padding repeats the last column and row, as encoders pad.
    if columns * size > args.width:
        edge = image.crop((args.width - 1, 0, args.width, args.height)).resize((columns * size - args.width, args.height))
        padded.paste(edge, (args.width, 0))
    if rows * size > args.height:
        edge = padded.crop((0, args.height - 1, columns * size, args.height)).resize((columns * size, rows * size - args.height))
        padded.paste(edge, (0, args.height))
    scratch = Path(tempfile.mkdtemp(prefix="grid-heic-"))
    try:
        names = []
        for r in range(rows):
            for c in range(columns):
                name = scratch / f"tile-{r:03}-{c:03}.png"
                padded.crop((c * size, r * size, (c + 1) * size, (r + 1) * size)).save(name)
                names.append(str(name))
        coded = scratch / ("tiles.avif" if args.avif else "tiles.heic")
        options = ["-q", "80"] + (["-A", "-p", "speed=9"] if args.avif else ["-p", "preset=ultrafast"])
        subprocess.run(["/usr/bin/heif-enc", *options, *names, "-o", str(coded)], check=True,
                       stdout=subprocess.DEVNULL)
        parsed = hostile.Heif.parse(coded.read_bytes())
        kind = b"av01" if args.avif else b"hvc1"
        config_type = b"av1C" if args.avif else b"hvcC"
        tiles = []
        for item in sorted(parsed.items):
            it = parsed.items[item]
            assert it.kind == kind, it.kind
            configuration = next(p for p, _ in it.props if p[4:8] == config_type)
            pixi = next((p for p, _ in it.props if p[4:8] == b"pixi"), None)
            tiles.append((configuration, pixi, it.data))
        assert len(tiles) == rows * columns, (len(tiles), rows, columns)
        if args.damage:
            tiles[0] = (tiles[0][0], tiles[0][1], b"\xff" * len(tiles[0][2]))
    finally:
        shutil.rmtree(scratch)
    brands = (b"avif", [b"mif1", b"avif", b"miaf"]) if args.avif else (b"heic", [b"mif1", b"heic", b"miaf"])
    data = build(brands, parsed.hdlr, kind, tiles, size, rows, columns, args.width, args.height, args.irot, args.imir)
    Path(args.output).write_bytes(data)


if __name__ == "__main__":
    main()
