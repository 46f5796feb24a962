// The gallery's justified layout: rows of photos at their own aspect ratios, every photo in a
// row as tall as the others and the row as wide as the grid (the last row excepted), as Google
// Photos and Flickr lay out theirs. Pure arithmetic over the images' ratios, so the virtualised
// grid knows every row's place before a cell of it exists, and the keyboard knows which photo
// lies above which. A module of the page's script (editor.js says how they fit together).

/// The space between photos, across and down (editor.css's --gap says the same).
export const GAP = 4;

/// The row width left unfilled, in pixels: the cells' widths are rounded down to the layout's
/// 1/64 px, and a row that came out a hair too wide would push its last photo onto a line of its
/// own. One pixel of slack keeps the browser's line breaks exactly where these rows put them.
const SLACK = 1;

/// Ratios beyond these are cropped to them (object-fit: cover): a 20:1 panorama at full width
/// would make a row a few pixels tall, a 1:20 strip a column of one.
const NARROWEST = 1 / 3;
const WIDEST = 3;

export function clampRatio(ratio) {
  return Number.isFinite(ratio) && ratio > 0 ? Math.min(WIDEST, Math.max(NARROWEST, ratio)) : 1;
}

const snap = (pixels) => Math.floor(pixels * 64) / 64;

/// Rows for `ratios` (width over height, one per image) in a grid `width` pixels wide, each row
/// as near `target` pixels tall as its photos allow. Returns typed arrays, one entry per row
/// (`starts`, `heights`, `tops`) and per image (`widths`, `lefts`), and the whole height: at
/// 100,000 images this is a few milliseconds and a few megabytes.
export function justify(ratios, width, target) {
  const count = ratios.length;
  const usable = Math.max(1, width - SLACK);
  const starts = [], heights = [];
  const widths = new Float64Array(count), lefts = new Float64Array(count);
  let first = 0;
  while (first < count) {
    // Photos join the row while it stays taller than the target; the one that takes it below
    // joins only if that leaves the row nearer the target than stopping before it.
    let sum = 0, next = first;
    for (; next < count; next += 1) {
      const ratio = clampRatio(ratios[next]);
      const height = (usable - (next - first) * GAP) / (sum + ratio);
      if (height < target && next > first) {
        const without = (usable - (next - first - 1) * GAP) / sum;
        if (target / height < without / target) { sum += ratio; next += 1; }
        break;
      }
      sum += ratio;
    }
    let height = (usable - (next - first - 1) * GAP) / sum;
    if (next >= count && height > target) height = target;  // the last row keeps the target height
    height = Math.max(1, snap(height));
    let left = 0;
    for (let index = first; index < next; index += 1) {
      widths[index] = Math.max(1, snap(clampRatio(ratios[index]) * height));
      lefts[index] = left;
      left += widths[index] + GAP;
    }
    starts.push(first);
    heights.push(height);
    first = next;
  }
  const tops = new Float64Array(starts.length);
  let top = 0;
  for (let row = 0; row < starts.length; row += 1) { tops[row] = top; top += heights[row] + GAP; }
  return {width, target, count, starts: Int32Array.from(starts), heights: Float64Array.from(heights), tops, widths, lefts,
    total: starts.length ? top - GAP : 0};
}

/// The row that holds image `index`.
export function rowOf(layout, index) {
  let low = 0, high = layout.starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (layout.starts[middle] <= index) low = middle; else high = middle - 1;
  }
  return low;
}

/// The row at `y` pixels from the grid's top (the one whose box or the gap after it holds y).
export function rowAt(layout, y) {
  let low = 0, high = layout.tops.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (layout.tops[middle] <= y) low = middle; else high = middle - 1;
  }
  return Math.max(0, low);
}

/// The images of `row`: [first, end).
export function rowRange(layout, row) {
  return [layout.starts[row], row + 1 < layout.starts.length ? layout.starts[row + 1] : layout.count];
}

/// The image in the row `step` rows from image `index`'s whose centre is nearest its centre in
/// x (Up and Down), or `index` itself at the first or last row.
export function neighbour(layout, index, step) {
  const row = rowOf(layout, index) + step;
  if (row < 0 || row >= layout.starts.length) return index;
  const centre = layout.lefts[index] + layout.widths[index] / 2;
  const [first, end] = rowRange(layout, row);
  let best = first, distance = Infinity;
  for (let other = first; other < end; other += 1) {
    const gap = Math.abs(layout.lefts[other] + layout.widths[other] / 2 - centre);
    if (gap < distance) { best = other; distance = gap; }
  }
  return best;
}
