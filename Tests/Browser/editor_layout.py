"""The gallery grid's justified layout as a person sees it, measured from the DOM alone: the photos
of a row share one height, every photo fills its cell at its own aspect ratio (no bars, no
stretch), nothing overlaps, and every row but the last fills the grid's width. Independent of the
page's own layout code: it reads boxes, not the page's arithmetic.
"""

from harness import CheckFailed

# Every drawn cell's box (relative to the grid), its photo's box and the photo's natural ratio.
GEOMETRY_SCRIPT = """(() => {
  const grid = document.getElementById('image-grid');
  const origin = grid.getBoundingClientRect();
  const style = getComputedStyle(grid);
  const width = grid.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const cells = [...grid.querySelectorAll('.image-cell[data-id]')].map((cell) => {
    const box = cell.getBoundingClientRect();
    const img = cell.querySelector('img');
    const photo = img.getBoundingClientRect();
    return {id: cell.dataset.id, left: box.left - origin.left, top: box.top - origin.top, width: box.width, height: box.height,
            photoWidth: photo.width, photoHeight: photo.height, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
            fit: getComputedStyle(img).objectFit, selected: cell.getAttribute('aria-selected') === 'true'};
  });
  return {width, cells};
})()"""

# How far each photo in the grid stands aside while a drag is held (its transform's x), in the
# placeholder's row before and after it, and elsewhere.
ROOM_SCRIPT = """(() => {
  const grid = document.getElementById('image-grid');
  const placeholder = grid.querySelector('.drop-placeholder');
  const offset = (cell) => new DOMMatrix(getComputedStyle(cell).transform).m41;
  const room = {before: [], after: [], elsewhere: []};
  let after = false;
  const top = placeholder ? placeholder.getBoundingClientRect().top : NaN;
  for (const child of grid.children) {
    if (child === placeholder) { after = true; continue; }
    if (!child.classList.contains('image-cell')) continue;
    const inRow = Math.abs(child.getBoundingClientRect().top - top) < 1;
    room[inRow ? (after ? 'after' : 'before') : 'elsewhere'].push(offset(child));
  }
  return room;
})()"""


def stands_aside(room):
    """Whether, while a drag is held, the photos of the placeholder's row stand aside from it
    (those before it to the left, those after to the right) and no other photo moved."""
    return bool(room["before"] or room["after"]) and all(x < -4 for x in room["before"]) \
        and all(x > 4 for x in room["after"]) and not any(room["elsewhere"])


def closed_up(room):
    """Whether every photo is back where the layout put it (the drag is over)."""
    return not any(x for offsets in room.values() for x in offsets)


# Pixels of tolerance: a row may end this short of the grid's edge (the layout's slack and
# rounding), and boxes may touch by this much without counting as overlap.
FILL_TOLERANCE = 3.0
EPSILON = 0.5


def rows_of(cells):
    """The cells grouped into rows by their top edge, in order."""
    rows = []
    for cell in sorted(cells, key=lambda c: (round(c["top"]), c["left"])):
        if rows and abs(rows[-1][0]["top"] - cell["top"]) < EPSILON:
            rows[-1].append(cell)
        else:
            rows.append([cell])
    return rows


def check_justified(page, minimum_rows=2):
    """Measures the grid and raises CheckFailed on the first rule it breaks; returns a summary."""
    geometry = page.evaluate(GEOMETRY_SCRIPT)
    cells, width = geometry["cells"], geometry["width"]
    if not cells:
        raise CheckFailed("the grid has no cells to measure")
    unloaded = [c["id"][:8] for c in cells if not c["naturalWidth"]]
    if unloaded:
        raise CheckFailed(f"thumbnails not loaded: {unloaded}")
    ratios = [c["naturalWidth"] / c["naturalHeight"] for c in cells]
    if not (min(ratios) < 0.95 and max(ratios) > 1.05):
        raise CheckFailed(f"the gallery needs portrait and landscape photos to check the layout: ratios {ratios}")
    for cell, ratio in zip(cells, ratios):
        if cell["selected"]:
            continue  # a chosen photo is inset in its cell on purpose
        if abs(cell["photoWidth"] - cell["width"]) > EPSILON or abs(cell["photoHeight"] - cell["height"]) > EPSILON:
            raise CheckFailed(f"{cell['id'][:8]}: the photo {cell['photoWidth']:.1f}×{cell['photoHeight']:.1f} does not "
                              f"fill its cell {cell['width']:.1f}×{cell['height']:.1f} (letterboxed)")
        shown = cell["width"] / cell["height"]
        if abs(shown / ratio - 1) > 0.02:
            raise CheckFailed(f"{cell['id'][:8]}: shown at ratio {shown:.3f}, the photo's own is {ratio:.3f} "
                              f"(distorted or cropped)")
    for index, a in enumerate(cells):
        for b in cells[index + 1:]:
            across = min(a["left"] + a["width"], b["left"] + b["width"]) - max(a["left"], b["left"])
            down = min(a["top"] + a["height"], b["top"] + b["height"]) - max(a["top"], b["top"])
            if across > EPSILON and down > EPSILON:
                raise CheckFailed(f"{a['id'][:8]} and {b['id'][:8]} overlap by {across:.1f}×{down:.1f} px")
    rows = rows_of(cells)
    if len(rows) < minimum_rows:
        raise CheckFailed(f"{len(rows)} rows at {width:.0f} px; at least {minimum_rows} expected")
    for number, row in enumerate(rows, 1):
        heights = {round(c["height"], 1) for c in row}
        if max(c["height"] for c in row) - min(c["height"] for c in row) > EPSILON:
            raise CheckFailed(f"row {number}'s photos differ in height: {sorted(heights)}")
        right = max(c["left"] + c["width"] for c in row)
        if right > width + EPSILON:
            raise CheckFailed(f"row {number} ends at {right:.1f} px, past the grid's {width:.1f}")
        if number < len(rows) and right < width - FILL_TOLERANCE:
            raise CheckFailed(f"row {number} ends at {right:.1f} px, short of the grid's {width:.1f}")
    heights = ", ".join(f"{row[0]['height']:.0f}" for row in rows)
    return (f"{len(cells)} photos in {len(rows)} rows at {width:.0f} px (heights {heights}), "
            "none letterboxed, distorted or overlapping")


def nearest_below(cells, cell, step):
    """The cell of the row `step` rows from `cell`'s whose centre is nearest its centre in x."""
    rows = rows_of(cells)
    number = next(i for i, row in enumerate(rows) if any(c["id"] == cell["id"] for c in row)) + step
    if number < 0 or number >= len(rows):
        return cell
    centre = cell["left"] + cell["width"] / 2
    return min(rows[number], key=lambda c: abs(c["left"] + c["width"] / 2 - centre))
