// The gallery: its grid (virtualised for large galleries), the status, and conflicts to settle.
// A module of the page's script (editor.js says how they fit together).

import {state, $, element, showMessage, api, leaveDocument} from './editor.js';
import {select, focusCell, dragStart, dragEnd} from './editor-keys.js';

// MARK: The gallery

export async function openGallery(key) {
  $('browser-view').hidden = true;
  $('detail-view').hidden = true;
  $('gallery-view').hidden = false;
  if (state.key === key && state.doc) {  // back from the detail view: the grid is as it was
    drawDocument(state.doc);
    focusCell(state.focusId);
    return;
  }
  if (state.key !== key) {
    const previous = state.key;
    state.key = key;
    // The other gallery's view goes now: a scroll meanwhile would draw its cells again (the
    // virtualised grid draws from state.doc), under this gallery's key.
    state.doc = null;
    // Its cells go, their loads cancelled, before its document closes; none is kept for this
    // gallery (drawGrid keeps a cell by its image's id, and its thumbnail's address names the
    // other gallery).
    leaveDocument(previous);
    $('image-grid').replaceChildren();
  }
  state.selected.clear();
  drawNotice(null);
  delete $('gallery-title').dataset.typing;
  try {
    drawDocument(await api(`/api/documents/${key}`));
  } catch (error) {
    showMessage(`Cannot open the gallery: ${error.message}`);
  }
}

export function setStatus(text, kind) {
  const status = $('status');
  status.textContent = text;
  status.dataset.state = kind;
}

export function drawStatus(doc) {
  if (doc.saving) setStatus('Saving…', 'saving');
  else if (doc.message) setStatus(doc.state === 'editing disabled' ? 'Read only' : 'Not saved', 'problem');
  else if (doc.edited) setStatus('Edited', 'edited');
  else setStatus('Saved', 'saved');
}

/// Sends the title typed in the field, once, if it differs from the gallery's.
export function commitTitle() {
  const field = $('gallery-title');
  if (!field.dataset.typing) return;
  delete field.dataset.typing;
  if (state.doc && field.value !== state.doc.title) edit({op: 'title', title: field.value});
}

/// What the document says the user must know now (why a save failed, who holds the file, a
/// conflict): one notice that follows the document's view and goes once the view no longer
/// says it, unlike the messages of single actions, which stay until dismissed.
export function drawNotice(text) {
  let notice = document.querySelector('#messages .notice');
  if (!text || text === state.dismissedNotice) {
    notice?.remove();
    if (!text) state.dismissedNotice = null;
    return;
  }
  if (!notice) {
    notice = element('div', {class: 'message notice'}, element('span'));
    const dismiss = element('button', {type: 'button', text: 'Dismiss'});
    dismiss.addEventListener('click', () => { state.dismissedNotice = notice.querySelector('span').textContent; notice.remove(); });
    notice.append(dismiss);
    $('messages').append(notice);
  }
  notice.querySelector('span').textContent = text;
}

export function drawDocument(doc) {
  if (doc.key !== state.key) return;
  state.doc = doc;
  document.title = doc.title || doc.fileName;
  $('crumb').textContent = doc.title || doc.fileName;
  const titleField = $('gallery-title');
  if (!titleField.dataset.typing) titleField.value = doc.title;  // never over what is being typed
  titleField.readOnly = doc.state === 'editing disabled';
  $('undo-button').disabled = !doc.canUndo;
  $('redo-button').disabled = !doc.canRedo;
  $('save-button').disabled = !doc.edited;
  drawStatus(doc);
  drawNotice(doc.message);
  drawConflicts(doc);
  const ids = new Set(doc.images.map((image) => image.id));
  for (const id of [...state.selected]) if (!ids.has(id)) state.selected.delete(id);
  drawGrid(doc);
}

// MARK: The grid, virtualised: a large gallery has cells only for the rows on screen (and a few
// more), between two spacers that keep the page as tall as the whole grid, so 10,000 images
// scroll as smoothly as ten.

/// Galleries smaller than this draw every cell: the simplest page where it costs nothing.
export const VIRTUAL_FROM = 300;
export let drawnRange = {first: 0, last: 0};

/// One cell's box and the gap between cells, as laid out (fractions of a pixel kept: an error
/// of one pixel a row is 1,700 pixels over 10,000 images); estimated from the slider until a
/// cell exists, after which drawGrid draws again with what it measures.
function cellMetrics(grid) {
  const style = getComputedStyle(grid);
  const gap = {row: parseFloat(style.rowGap) || 0, column: parseFloat(style.columnGap) || 0};
  const sample = grid.querySelector('.image-cell[data-id]');
  const size = Number($('cell-size').value);
  const box = sample ? usedSize(sample) : {width: size + 12, height: size + 60};
  return {width: box.width + gap.column, height: box.height + gap.row, gap: gap.row, measured: Boolean(sample)};
}

/// A box's used size with its padding and border, as the style resolves it: the same for every
/// cell wherever it lies, where getBoundingClientRect's height is the difference of two
/// positions and, 400,000 px down a page, off by a fiftieth of a pixel, which 2,000 rows made
/// a page 38 px taller at its end than at its top.
function usedSize(node) {
  const style = getComputedStyle(node);
  const px = (value) => parseFloat(value) || 0;
  const content = style.boxSizing === 'border-box';
  const across = content ? 0 : px(style.paddingLeft) + px(style.paddingRight) + px(style.borderLeftWidth) + px(style.borderRightWidth);
  const down = content ? 0 : px(style.paddingTop) + px(style.paddingBottom) + px(style.borderTopWidth) + px(style.borderBottomWidth);
  return {width: px(style.width) + across, height: px(style.height) + down};
}

/// The images to draw: all of a small gallery, else the rows in view and three on each side,
/// between two spacers that make the grid exactly as tall as all its rows would be, wherever
/// it is scrolled to.
export function visibleRange(count) {
  if (count < VIRTUAL_FROM) return {first: 0, last: count, top: 0, bottom: 0};
  const grid = $('image-grid');
  const metrics = cellMetrics(grid);
  const height = metrics.height;
  const columns = Math.max(1, Math.floor((grid.clientWidth + metrics.gap + 0.5) / metrics.width));
  const rows = Math.ceil(count / columns);
  const gridTop = grid.getBoundingClientRect().top;
  const screenRows = Math.ceil(window.innerHeight / height);
  // Never past the last screenful: a page scrolled beyond the rows (its height was still an
  // estimate) shows the last rows rather than nothing.
  const topRow = Math.max(0, Math.min(Math.floor(-gridTop / height), rows - screenRows));
  const firstRow = Math.max(0, topRow - 3);
  const lastRow = Math.min(rows, topRow + screenRows + 4);
  // The rows on the screen itself, whose thumbnails are fetched before those of the rows around them.
  const seen = {first: topRow * columns, last: Math.min(count, (topRow + screenRows + 1) * columns)};
  // A spacer is a flex line of its own, followed or preceded by the gap: it is a gap shorter.
  return {first: firstRow * columns, last: Math.min(count, lastRow * columns),
    top: firstRow ? firstRow * height - metrics.gap : 0, bottom: lastRow < rows ? (rows - lastRow) * height - metrics.gap : 0,
    columns, height, seen, measured: metrics.measured};
}

/// Scrolls the page so that the image at `index` is in view (a virtualised grid may not have drawn it).
export function revealIndex(index) {
  const range = visibleRange(state.doc.images.length);
  if (!range.columns || (index >= range.first && index < range.last)) return;
  const grid = $('image-grid');
  const row = Math.floor(index / range.columns);
  window.scrollTo(0, grid.getBoundingClientRect().top + window.scrollY + row * range.height - window.innerHeight / 3);
  drawGrid(state.doc);
}

/// Once per page: a performance mark when the grid's first screen of thumbnails has loaded and
/// been painted (Benchmarks/editor.py reads it: "time to the first grid with thumbnails").
let firstPaintMarked = false;
function markFirstPaint(grid) {
  if (firstPaintMarked) return;
  const inView = [...grid.querySelectorAll('.image-cell img')].filter((img) => {
    const box = img.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  });
  if (!inView.length) return;
  firstPaintMarked = true;
  Promise.all(inView.map((img) => img.complete ? null : new Promise((done) => {
    img.addEventListener('load', done, {once: true});
    img.addEventListener('error', done, {once: true});
  }))).then(() => requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('imagegallery-grid-painted'))));
}

function spacer(height) {
  const node = element('li', {class: 'grid-spacer', 'aria-hidden': 'true'});
  node.style.height = `${height}px`;
  return node;
}

export function drawGrid(doc, again = true) {
  const grid = $('image-grid');
  const hadFocus = grid.contains(document.activeElement) && document.activeElement.classList.contains('image-cell');
  const editing = document.activeElement && document.activeElement.closest && document.activeElement.closest('.image-cell input');
  if (editing) return;  // redrawn after the caption is committed
  const range = visibleRange(doc.images.length);
  drawnRange = range;
  const existing = new Map([...grid.children].map((cell) => [cell.dataset.id, cell]));
  const cells = doc.images.slice(range.first, range.last).map((image, offset) => {
    let cell = existing.get(image.id);
    if (!cell) cell = imageCell(image, doc.key);
    updateCell(cell, image, range.first + offset, doc);
    if (range.seen) {
      // Only the rows near the screen are drawn: lazy loading would just wait a layout for them.
      const index = range.first + offset;
      const img = cell.querySelector('img');
      img.loading = 'eager';
      img.fetchPriority = index >= range.seen.first && index < range.seen.last ? 'high' : 'low';
    }
    return cell;
  });
  // Drops on their way in keep their placeholder cells wherever the grid is redrawn from.
  const pendingCells = state.pending.map((item) => item.cell);
  for (const item of [...state.pending].sort((a, b) => a.at - b.at)) {
    cells.splice(Math.max(0, Math.min(item.at - range.first, cells.length)), 0, item.cell);
  }
  if (range.top) cells.unshift(spacer(range.top));
  if (range.bottom) cells.push(spacer(range.bottom));
  grid.replaceChildren(...cells);
  grid.setAttribute('aria-rowcount', String(doc.images.length));
  markFirstPaint(grid);
  $('image-grid-empty').hidden = doc.images.length > 0 || pendingCells.length > 0;
  if (!state.focusId || !doc.images.some((image) => image.id === state.focusId)) state.focusId = doc.images[0]?.id ?? null;
  for (const cell of cells) if (cell.dataset.id) cell.tabIndex = cell.dataset.id === state.focusId ? 0 : -1;
  if (hadFocus) focusCell(state.focusId);
  // Drawn from an estimate, or from cells of another size: once more with the cells as laid out.
  if (again && range.columns) {
    const now = visibleRange(doc.images.length);
    if (!range.measured || Math.abs(now.height - range.height) > 0.01 || now.columns !== range.columns) drawGrid(doc, false);
  }
}

function imageCell(image, key) {
  const img = element('img', {src: `/api/documents/${key}/images/${image.id}/thumbnail`, alt: '', loading: 'lazy', draggable: 'false'});
  const caption = element('input', {type: 'text', 'aria-label': 'Caption', maxlength: '10000', placeholder: 'Caption'});
  // A grid of rows, one per image, each a single cell: a listbox's options could not hold the
  // caption field (axe-core's nested-interactive), a grid's cells may.
  const cell = element('li', {class: 'image-cell', role: 'row', draggable: 'true', dataset: {id: image.id}},
    element('div', {class: 'cell-body', role: 'gridcell'}, element('div', {class: 'frame'}, img), element('span', {class: 'name'}), caption));
  caption.addEventListener('change', () => edit({op: 'caption', id: cell.dataset.id, caption: caption.value}));
  caption.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Enter' || event.key === 'Escape') { caption.blur(); cell.focus(); }
  });
  cell.addEventListener('click', (event) => {
    // A click in the caption field is for typing there: selecting the cell would move the focus
    // to the cell, away from the field just clicked.
    if (event.target === caption) return;
    select(cell.dataset.id, event);
  });
  cell.addEventListener('dblclick', () => { location.hash = `gallery=${state.key}&image=${cell.dataset.id}`; });
  cell.addEventListener('dragstart', dragStart);
  cell.addEventListener('dragend', dragEnd);
  return cell;
}

function updateCell(cell, image, index, doc) {
  const name = image.filename ?? `${image.id.slice(0, 8)}…`;
  cell.querySelector('.name').textContent = name;
  cell.querySelector('img').alt = image.caption || name;
  const caption = cell.querySelector('input');
  if (document.activeElement !== caption) caption.value = image.caption ?? '';
  caption.readOnly = doc.state === 'editing disabled';
  cell.setAttribute('aria-selected', state.selected.has(image.id) ? 'true' : 'false');
  cell.setAttribute('aria-label', `${index + 1} of ${doc.images.length}: ${image.caption || name}`);
  cell.setAttribute('aria-rowindex', String(index + 1));
  cell.style.setProperty('--ratio', `${image.width / Math.max(image.height, 1)}`);
}

// MARK: Conflicts: the versions the document layer kept, and the user's decision

function drawConflicts(doc) {
  const panel = $('conflict-panel');
  const versions = doc.versions ?? [];
  panel.hidden = versions.length === 0 && !(doc.mergeConflicts && doc.mergeConflicts.length);
  const origins = {ours: 'Your unsaved edits', theirs: 'The file before', syncCopy: 'A sync client\'s copy'};
  $('version-list').replaceChildren(...versions.map((version) => {
    const keep = element('button', {type: 'button', text: 'Keep this version'});
    keep.addEventListener('click', () => edit({op: 'keepVersion', version: version.id}));
    return element('li', {class: 'version', dataset: {id: version.id, origin: version.origin}},
      element('img', {src: `/api/documents/${doc.key}/versions/${version.id}/thumbnail`, alt: ''}),
      element('p', {class: 'title', text: `${origins[version.origin] ?? version.origin}: ${version.title}`}),
      element('p', {class: 'details', text: `${version.imageCount} images · ${new Date(version.time).toLocaleString()} · ${version.host}`
        + (version.missingImages ? ` · ${version.missingImages} images could not be kept` : '')}),
      keep);
  }));
  $('keep-current-button').hidden = versions.length === 0;
  $('merge-button').hidden = versions.length === 0;
  if (doc.mergeConflicts) {
    $('merge-conflicts').replaceChildren(...doc.mergeConflicts.map((text) => element('li', {text})));
  } else if (versions.length) {
    $('merge-conflicts').replaceChildren();
  }
}

export async function edit(request) {
  if (!state.key) return;
  try {
    const doc = await api(`/api/documents/${state.key}/edits`, {method: 'POST', body: JSON.stringify(request)});
    // The reply can be older than an event already drawn: a save's end is pushed on the event
    // stream while the reply (made while the server still counted the save as running) is on
    // its way. Events arrive in order and the last one of a save says how it ended, so whether
    // a save is running is taken from them, never from a reply.
    if (state.doc && state.doc.key === doc.key) doc.saving = state.doc.saving;
    drawDocument(doc);
  } catch (error) {
    showMessage(error.message);
  }
}
