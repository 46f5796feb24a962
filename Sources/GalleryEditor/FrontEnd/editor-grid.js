// The gallery: its grid (virtualised for large galleries), the status, and conflicts to settle.
// A module of the page's script (editor.js says how they fit together).

import {state, $, element, icon, showMessage, api, leaveDocument} from './editor.js';
import {select, focusCell, dragStart, dragEnd} from './editor-keys.js';
import {GAP, justify, rowAt, rowOf, rowRange} from './editor-layout.js';
import {labelCell, schedulePrivacy} from './editor-privacy.js';
import {keepDropPoint, makeRoom} from './editor-drops.js';

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
    // Its view and cells go now (a scroll would draw them under this key), their loads cancelled
    // before its document closes.
    state.doc = null;
    leaveDocument(previous);
    $('image-grid').replaceChildren();
  }
  state.selected.clear();
  drawNotice(null);
  delete $('gallery-title').dataset.typing;
  try {
    // `early`: a look the editor kept from an earlier open of the same file will do, drawn while
    // the gallery opens behind it (at 100,000 images, most of the first paint); its own view
    // follows once the first screen is in (settleEarlyLook), and edits wait for it.
    const look = firstLook(await api(`/api/documents/${key}?first=${FIRST_LOOK}&early=1`));
    screenful = [];
    drawDocument(look);
    if (state.key !== key) return;
    if (look.early) wholeList = settleEarlyLook(key, look);
    else if (state.doc?.partial) wholeList = takeWholeList(key);
  } catch (error) {
    showMessage(`Cannot open the gallery: ${error.message}`);
  }
}

/// The document's own first look in place of the early one, then its whole list. Asked for once
/// the first screen's photos are in (or after two seconds): the open it starts would take the
/// processor from their first paint. Before it, the rest of the list comes from what the editor
/// kept with the look (no open needed), so that a scroll straight after the first paint finds
/// photos; the page keeps that list if the document then says it is still the file's (the same
/// `fileToken`), and otherwise takes the document's as a first look's.
async function settleEarlyLook(key, early) {
  try {
    await Promise.race([screenLoaded($('image-grid')), new Promise((done) => setTimeout(done, 2000))]);
    if (state.doc !== early) return;
    let kept = null;
    // A list not kept (or no longer the file's) is no error: the document's pieces follow.
    if (early.fileToken) kept = await fillList(key, early, true).catch(() => null);
    if (state.doc !== early) return;
    const look = firstLook(await api(`/api/documents/${key}?first=${FIRST_LOOK}`));
    if (state.doc !== early) return;
    if (kept?.fits && look.partial) {
      const check = await api(`/api/documents/${key}/images?from=0&count=1`);
      if (state.doc !== early) return;
      if (check.fileToken === early.fileToken && check.total === early.images.length) {
        look.images = early.images;
        look.imagesVersion = check.imagesVersion;
        delete look.partial;
        return showInPlace(look, early);
      }
    }
    drawDocument(look);
    if (state.doc?.partial) await takeWholeList(key, true);
  } catch (error) {
    showMessage(`Cannot open the gallery: ${error.message}`);
  }
}

/// A gallery of more images than this opens with a first look: these first images whole, the
/// rest by their sizes alone, enough to lay out the whole grid. Its whole list follows once the
/// first screen is drawn: at 100,000 images that list is 12 MB to write, send and parse, most of
/// the time before the first photo showed.
const FIRST_LOOK = 1000;
/// While the page shows a first look: the promise of the whole list. Edits wait for it.
let wholeList = null;
export function wholeListShown() { return wholeList ?? Promise.resolve(); }

/// The view with the images it names only by size as stand-ins (`later`), so that the grid, its
/// height and every count are the gallery's; a stand-in is drawn as an empty frame.
function firstLook(doc) {
  if (!doc.laterSizes) return doc;
  const sizes = doc.laterSizes;
  delete doc.laterSizes;
  for (let i = 0; i < sizes.length; i += 2) doc.images.push({id: `later-${i / 2}`, width: sizes[i], height: sizes[i + 1], later: true});
  doc.partial = true;
  return doc;
}

/// The whole list, asked once the first screen's photos have loaded (they come first), in pieces
/// put in place of the stand-ins as they come: the list at once was 12 MB for the page to parse
/// in one task, a frozen screen while the user scrolls. Every piece is of one version of the list;
/// a list that changed meanwhile (another piece's version, another length) is asked for whole. A
/// newer view that has taken the first look's place ends it.
const PIECE = 10000;
async function takeWholeList(key, screenIn = false) {
  // Not waited for again after an early look: the photos then in view may be stand-ins, which
  // load once this list is in.
  if (!screenIn) await screenLoaded($('image-grid'));
  const doc = state.doc;
  try {
    const filled = await fillList(key, doc, false);
    if (filled.gone) return;
    if (!filled.fits) return showWhole(await api(`/api/documents/${key}`), doc);
    doc.imagesVersion = filled.last.imagesVersion;
    delete doc.partial;
    showWhole(doc, doc);
  } catch (error) {
    showMessage(`Cannot open the gallery: ${error.message}`);
  }
}

/// `doc`'s stand-ins replaced by the pieces of its list as they come, those in view drawn: the
/// document's pieces, all of one version, or with `early` those of the list of the early look
/// `doc`'s file (`fileToken`), from the cache or the document. `gone` when a newer view took
/// `doc`'s place meanwhile; `fits` false when a piece was not of that list (another length,
/// version or file).
async function fillList(key, doc, early) {
  let last = null, resized = false;
  for (let from = 0; from < doc.images.length; from += PIECE) {
    const piece = await api(`/api/documents/${key}/images?from=${from}&count=${PIECE}${early ? '&early=1' : ''}`);
    if (state.doc !== doc) return {gone: true};
    // The same token is the same list, whether it came from the cache or, once open, the document.
    const ofList = early ? piece.fileToken === doc.fileToken : last === null || piece.imagesVersion === last.imagesVersion;
    if (piece.total !== doc.images.length || piece.from !== from || !ofList) return {fits: false};
    last = piece;
    piece.images.forEach((image, offset) => {
      const held = doc.images[from + offset];
      resized ||= held.width !== image.width || held.height !== image.height;
      doc.images[from + offset] = image;
    });
    // The layout stays (the sizes are the first look's); stand-ins in view get their photos.
    if (from < drawnRange.last && from + PIECE > drawnRange.first && !$('gallery-view').hidden) drawGrid(doc);
  }
  if (resized) ratiosChanged += 1;
  return {fits: last !== null, last};
}

/// `whole` in place of the first look `look`, unless a newer view has taken its place.
function showWhole(whole, look) {
  whole.saving = look.saving;  // taken from the events, as an edit's reply does
  showInPlace(whole, look);
}

/// `view` in place of `held`, unless a newer view has taken its place.
function showInPlace(view, held) {
  if (state.doc !== held) return;
  if ($('detail-view').hidden) drawDocument(view); else { state.doc = view; drawStatus(view); }
}

export function setStatus(text, kind) {
  const status = $('status');
  status.textContent = text;
  status.dataset.state = kind;
}

export function drawStatus(doc) {
  if (doc.early) setStatus('Opening…', 'opening');
  else if (doc.saving) setStatus('Saving…', 'saving');
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

/// What the document says the user must know now (a failed save, who holds the file, a conflict):
/// one notice that goes once the view no longer says it, unlike the messages of single actions.
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
  $('gallery-heading').textContent = doc.title || doc.fileName;
  const titleField = $('gallery-title');
  if (!titleField.dataset.typing) titleField.value = doc.title;  // never over what is being typed
  titleField.readOnly = doc.state === 'editing disabled';
  $('undo-button').disabled = !doc.canUndo;
  $('redo-button').disabled = !doc.canRedo;
  $('save-button').disabled = !doc.edited;
  $('play-button').disabled = !doc.images.length || Boolean(doc.partial);
  $('uncover-button').disabled = !doc.cover;
  drawStatus(doc);
  drawNotice(doc.message);
  drawConflicts(doc);
  // A set of every id only when there is a choice to keep to them: at 100,000 images it is 15 ms.
  if (state.selected.size) {
    const ids = new Set(doc.images.map((image) => image.id));
    for (const id of [...state.selected]) if (!ids.has(id)) state.selected.delete(id);
  }
  // Marked while it shows a first look (a test waits for the whole list by it).
  $('image-grid').toggleAttribute('data-first-look', Boolean(doc.partial));
  drawGrid(doc);
  schedulePrivacy();
}

// MARK: The grid: justified rows (editor-layout.js), virtualised: a large gallery has cells only
// for the rows near the screen, so 10,000 images scroll as smoothly as ten.

/// Galleries smaller than this draw every cell: the simplest page where it costs nothing.
export const VIRTUAL_FROM = 300;
export let drawnRange = {first: 0, last: 0};

/// Each image's width over height as its loaded thumbnail shows it: the manifest's is the coded
/// size, before the orientation that turns a phone's portrait upright.
const uprightRatios = new Map();
let ratiosChanged = 0;
let laidOut = null;  // {images, width, target, changed, layout}

/// The layout at the grid's width and the slider's row height, made again only when one of them,
/// the list of images or a learned ratio changes (a scroll, a save's events reuse it).
export function gridLayout(doc = state.doc) {
  const width = $('image-grid').clientWidth;
  const target = Number($('cell-size').value);
  if (laidOut && laidOut.images === doc.images && laidOut.width === width && laidOut.target === target && laidOut.changed === ratiosChanged) {
    return laidOut.layout;
  }
  const ratios = doc.images.map((image) => uprightRatios.get(image.id) ?? image.width / Math.max(1, image.height));
  const layout = justify(ratios, width, target);
  laidOut = {images: doc.images, width, target, changed: ratiosChanged, layout};
  return layout;
}

/// The images to draw: all of a small gallery, else the rows in view and three each side,
/// between spacers that make the grid as tall as all its rows.
export function visibleRange(count) {
  const layout = gridLayout();
  const rows = layout.starts.length;
  if (count < VIRTUAL_FROM || !rows) return {first: 0, last: count, top: 0, bottom: 0, firstRow: 0, lastRow: rows, layout};
  const above = Math.max(0, -$('image-grid').getBoundingClientRect().top);
  const topRow = rowAt(layout, above);
  const bottomRow = rowAt(layout, above + window.innerHeight);
  const firstRow = Math.max(0, topRow - 3);
  const lastRow = Math.min(rows, bottomRow + 4);
  // The rows on the screen itself, whose thumbnails are fetched before those of the rows around them.
  const seen = {first: layout.starts[topRow], last: rowRange(layout, bottomRow)[1]};
  // A spacer is a flex line of its own, followed or preceded by the gap.
  return {first: layout.starts[firstRow], last: lastRow < rows ? layout.starts[lastRow] : count,
    top: firstRow ? layout.tops[firstRow] - GAP : 0, bottom: lastRow < rows ? layout.total - layout.tops[lastRow] : 0,
    firstRow, lastRow, seen, layout, virtual: true};
}

/// Scrolls the image at `index` into view (a virtualised grid may not have drawn it).
export function revealIndex(index) {
  const range = visibleRange(state.doc.images.length);
  if (!range.virtual || (index >= range.first && index < range.last)) return;
  const grid = $('image-grid');
  const top = range.layout.tops[rowOf(range.layout, index)];
  window.scrollTo(0, grid.getBoundingClientRect().top + window.scrollY + top - window.innerHeight / 3);
  drawGrid(state.doc);
}

/// Once per page: a performance mark when the grid's first screen of thumbnails has loaded and
/// been painted (Benchmarks/editor.py reads it: "time to the first grid with thumbnails").
let firstPaintMarked = false;
function markFirstPaint(grid) {
  if (firstPaintMarked || !photosInView(grid).length) return;
  firstPaintMarked = true;
  screenLoaded(grid).then(() => requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('imagegallery-grid-painted'))));
}

function photosInView(grid) {
  return [...grid.querySelectorAll('.image-cell img')].filter((img) => {
    const box = img.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  });
}

/// Resolves once every photo in view has loaded or failed. One whose source is still to come
/// (the first screen's answer) counts as loading: with no source, `complete` is true.
function screenLoaded(grid) {
  return Promise.all(photosInView(grid).map((img) => img.complete && img.getAttribute('src') ? null : new Promise((done) => {
    img.addEventListener('load', done, {once: true});
    img.addEventListener('error', done, {once: true});
  })));
}

/// The rows not drawn above and below, as one empty block each (kept, not made again each frame).
const spacers = {top: null, bottom: null};
function spacer(which, height) {
  spacers[which] ??= element('div', {class: 'grid-spacer', 'aria-hidden': 'true'});
  spacers[which].style.height = `${height}px`;
  return spacers[which];
}

/// Makes the grid's children `cells`, in order, touching only what changed: replaceChildren would
/// restyle and lay out every drawn photo again, each frame of a scroll.
function reconcile(grid, cells) {
  const wanted = new Set(cells);
  for (const child of [...grid.children]) if (!wanted.has(child)) child.remove();
  let cursor = grid.firstElementChild;
  for (const cell of cells) {
    if (cell === cursor) cursor = cursor.nextElementSibling;
    else grid.insertBefore(cell, cursor);
  }
}

export function drawGrid(doc) {
  const grid = $('image-grid');
  const hadFocus = grid.contains(document.activeElement) && document.activeElement.classList.contains('image-cell');
  if (grid.querySelector('.image-cell input')) return;  // a caption being edited: redrawn once it is committed
  const range = visibleRange(doc.images.length);
  drawnRange = range;
  const layout = range.layout;
  grid.style.setProperty('--row', `${layout.target}px`);
  const existing = new Map([...grid.children].map((cell) => [cell.dataset.id, cell]));
  const staying = new Set(doc.images.slice(range.first, range.last).map((image) => image.id));
  for (const [id, cell] of existing) if (id && !staying.has(id)) spareCell(cell);
  const cells = [];
  for (let row = range.firstRow; row < range.lastRow; row += 1) {
    const [first, end] = rowRange(layout, row);
    for (let index = first; index < end; index += 1) {
      const image = doc.images[index];
      // Only the rows near the screen are drawn: lazy loading would just wait a layout for them.
      // A new photo is made so (bindCell); one drawn before is told so only if it changed, since
      // each change to the attributes sends the image's load through its checks again.
      const fetching = range.seen && {loading: 'eager', fetchpriority: index >= range.seen.first && index < range.seen.last ? 'high' : 'low'};
      const cell = existing.get(image.id) ?? takeCell(image, doc.key, fetching);
      updateCell(cell, image, index, doc);
      cell.style.width = `${layout.widths[index]}px`;
      cell.style.height = `${layout.heights[row]}px`;
      // A first look's stand-in has no photo (a draw that reached one threw here, and the grid
      // stayed as it was until the whole list came).
      const img = fetching && cell.querySelector('img');
      if (img) {
        if (img.loading !== fetching.loading) img.loading = fetching.loading;
        if (img.fetchPriority !== fetching.fetchpriority) img.fetchPriority = fetching.fetchpriority;
      }
      cells.push(cell);
    }
  }
  // Drops on their way in keep their placeholder cells wherever the grid is redrawn from.
  const pendingCells = state.pending.map((item) => item.cell);
  for (const item of [...state.pending].sort((a, b) => a.at - b.at)) {
    cells.splice(Math.max(0, Math.min(item.at - range.first, cells.length)), 0, item.cell);
  }
  if (screenful) {
    const batch = screenful;
    screenful = null;
    if (batch.length) loadScreenful(batch, doc.key);
  }
  if (range.top) cells.unshift(spacer('top', range.top));
  if (range.bottom) cells.push(spacer('bottom', range.bottom));
  const dropHeld = keepDropPoint(grid, cells);
  reconcile(grid, cells);
  if (dropHeld) makeRoom(grid);
  playMoves(cells);
  grid.setAttribute('aria-rowcount', String(doc.images.length));
  markFirstPaint(grid);
  $('image-grid-empty').hidden = doc.images.length > 0 || pendingCells.length > 0;
  if (!state.focusId || !doc.images.some((image) => image.id === state.focusId)) state.focusId = doc.images[0]?.id ?? null;
  for (const cell of cells) if (cell.dataset.id) cell.tabIndex = cell.dataset.id === state.focusId ? 0 : -1;
  if (hadFocus) focusCell(state.focusId);
}

// MARK: Moves animate (FLIP), so a reorder, a removal or an undo shows what moved; not with
// prefers-reduced-motion.

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
let movedFrom = null;  // {boxes: id → the cell's box before the change, until: when to stop waiting for it}

/// Keeps where every drawn photo is, for the draw that shows the change (within a second) to animate.
export function animateNextDraw() {
  if (reducedMotion.matches) { movedFrom = null; return; }
  const boxes = new Map([...$('image-grid').querySelectorAll('.image-cell[data-id]')]
    .map((cell) => [cell.dataset.id, cell.getBoundingClientRect()]));
  movedFrom = {boxes, until: performance.now() + 1000};
}

/// Each cell's move under way, if any: a cell taken for another photo ends it. Asking the cell
/// (getAnimations) brings its style up to date, and a scroll's sixty cells a frame each forced
/// one: most of a scroll's processor time.
const moves = new WeakMap();

function playMoves(cells) {
  if (!movedFrom) return;
  if (reducedMotion.matches || performance.now() > movedFrom.until) { movedFrom = null; return; }
  const moving = [];
  for (const cell of cells) {
    const before = cell.dataset.id && movedFrom.boxes.get(cell.dataset.id);
    if (!before) continue;
    const after = cell.getBoundingClientRect();
    const dx = before.left - after.left, dy = before.top - after.top;
    if (Math.abs(dx) >= 0.5 || Math.abs(dy) >= 0.5) moving.push([cell, dx, dy]);
  }
  if (!moving.length) return;  // a draw that moved nothing (a status): the change is still to come
  movedFrom = null;
  for (const [cell, dx, dy] of moving) {
    moves.set(cell, cell.animate([{transform: `translate(${dx}px, ${dy}px)`}, {transform: 'none'}], {duration: 220, easing: 'ease-out'}));
  }
}

/// A thumbnail whose upright shape differs from the manifest's (a turned phone photo) lays the
/// grid out again, once a frame, however many arrive: scroll anchoring keeps the view in place.
let relayoutQueued = false;
function learnRatio(img, image) {
  const ratio = img.naturalWidth / Math.max(1, img.naturalHeight);
  const assumed = uprightRatios.get(image.id) ?? image.width / Math.max(1, image.height);
  if (!img.naturalWidth || Math.abs(Math.log(ratio / assumed)) < 0.02) return;
  uprightRatios.set(image.id, ratio);
  ratiosChanged += 1;
  if (relayoutQueued) return;
  relayoutQueued = true;
  requestAnimationFrame(() => { relayoutQueued = false; if (state.doc && !$('gallery-view').hidden) drawGrid(state.doc); });
}

/// A star: the gallery's cover (the chosen one, else the first image).
const STAR = 'M12 3l2.7 6H21l-5 4.3 2 6.7-6-4-6 4 2-6.7L3 9h6.3z';
/// A check mark in a circle: the sign that a photo is chosen.
const CHECK = 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-1.6 14.2-4.3-4.3 1.4-1.4 2.9 2.9 6.1-6.1 1.4 1.4z';

/// Cells that left the grid draw the photos that come in (not one the user is busy with): a jump
/// made sixty cells of a dozen elements a frame, its largest cost.
const spareCells = [];
function spareCell(cell) {
  if (spareCells.length >= 240 || cell.matches('.editing, .dragging') || cell.contains(document.activeElement)) return;
  // Its load ends; a photo already in has none to end, and the cell takes a new one (bindCell).
  const img = cell.querySelector('.frame img');
  if (img && !img.complete) img.removeAttribute('src');
  spareCells.push(cell);
}

function takeCell(image, key, fetching) {
  const cell = spareCells.pop();
  if (!cell) return imageCell(image, key, fetching);
  moves.get(cell)?.cancel();
  moves.delete(cell);
  cell.style.transform = '';
  bindCell(cell, image, key, fetching);
  return cell;
}

/// A new photo, so that the last image's never shows while it loads; `fetching`: its `loading`
/// and `fetchpriority` when not lazy, set before its source (drawGrid).
function bindCell(cell, image, key, fetching = null) {
  cell.dataset.id = image.id;
  // A first look's stand-in has no photo to ask for yet: its frame stays empty, and it is not
  // dragged or opened (the whole list replaces it within a moment).
  cell.classList.toggle('later', Boolean(image.later));
  cell.draggable = !image.later;
  if (image.later) { cell.querySelector('.frame').replaceChildren(); return; }
  // No alt text: the row's label names the photo.
  const img = element('img', {alt: '', loading: 'lazy', ...fetching, draggable: 'false'});
  img.addEventListener('load', () => learnRatio(img, image));
  if (screenful && screenful.length < SCREENFUL_LIMIT) screenful.push({img, id: image.id});
  else img.src = thumbnailURL(key, image.id);
  cell.querySelector('.frame').replaceChildren(img);
}

function thumbnailURL(key, id) { return `/api/documents/${key}/images/${id}/thumbnail`; }

// MARK: The first screen's photos in one request (EditorRoutes+Screenful): the browser asks a
// server six things at a time, and thirty photos one by one took five round trips.

/// While an open draws its first screen: the photos it binds, {img, id}, to ask for together.
let screenful = null;
const SCREENFUL_LIMIT = 200;

/// Asks for the photos of `batch` at once; each the cache did not hold, or that the answer
/// lacks, is asked for alone, as any other.
async function loadScreenful(batch, key) {
  const found = await api(`/api/documents/${key}/thumbnails?ids=${batch.map((item) => item.id).join(',')}`).catch(() => []);
  batch.forEach(({img, id}, index) => {
    const url = found[index];
    if (img.isConnected && state.key === key) img.src = typeof url === 'string' && url.startsWith('data:image/') ? url : thumbnailURL(key, id);
  });
}

function imageCell(image, key, fetching = null) {
  // A grid of rows, one per image, each a single cell. The name and the caption show over the
  // photo on hover, focus and selection; the caption is edited there on demand (F2).
  const cell = element('div', {class: 'image-cell', role: 'row', draggable: 'true'},
    element('div', {class: 'cell-body', role: 'gridcell'},
      element('div', {class: 'frame'}),
      element('div', {class: 'cell-info'}, element('span', {class: 'name'}), element('span', {class: 'caption'})),
      icon(CHECK, 'check'),
      element('span', {class: 'cover-badge', role: 'img', 'aria-label': 'Cover', title: 'Cover'}, icon(STAR))));
  cell.addEventListener('click', (event) => {
    // A click in the caption field is for typing there: selecting the cell would move the focus
    // to the cell, away from the field just clicked.
    if (event.target.closest('input')) return;
    select(cell.dataset.id, event);
  });
  cell.addEventListener('dblclick', (event) => {
    if (!event.target.closest('input') && !cell.classList.contains('later')) location.hash = `gallery=${state.key}&image=${cell.dataset.id}`;
  });
  cell.addEventListener('dragstart', dragStart);
  cell.addEventListener('dragend', dragEnd);
  bindCell(cell, image, key, fetching);
  return cell;
}

/// Opens the caption of the image `id` for typing, in place over its photo: Enter keeps what was
/// typed, Escape leaves the caption as it was, and leaving the field keeps it too.
export function editCaption(id) {
  const cell = [...$('image-grid').children].find((node) => node.dataset.id === id);
  const image = state.doc?.images.find((candidate) => candidate.id === id);
  if (!cell || !image || state.doc.state === 'editing disabled') return;
  const field = element('input', {type: 'text', 'aria-label': 'Caption', maxlength: '10000', placeholder: 'Caption'});
  field.value = image.caption ?? '';
  let done = false;
  const finish = (keep) => {
    if (done) return;
    done = true;
    const value = field.value;
    field.remove();
    cell.classList.remove('editing');
    if (keep && value !== (image.caption ?? '')) edit({op: 'caption', id, caption: value});
    else drawGrid(state.doc);
  };
  field.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Enter' || event.key === 'Escape') {
      event.preventDefault();
      finish(event.key === 'Enter');
      cell.focus();
    }
  });
  field.addEventListener('blur', () => finish(true));
  cell.classList.add('editing');
  cell.querySelector('.cell-info').append(field);
  field.focus();
  field.select();
}

function updateCell(cell, image, index, doc) {
  const name = image.later ? '' : image.filename ?? `${image.id.slice(0, 8)}…`;
  cell.querySelector('.name').textContent = name;
  cell.querySelector('.caption').textContent = image.caption ?? '';
  cell.setAttribute('aria-selected', state.selected.has(image.id) ? 'true' : 'false');
  const cover = (doc.cover ?? doc.images[0].id) === image.id;
  cell.classList.toggle('cover', cover);
  labelCell(cell, image.id, `${index + 1} of ${doc.images.length}: ${image.caption || name}${cover ? ', the cover' : ''}`);
  cell.setAttribute('aria-rowindex', String(index + 1));
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

/// The edits that move photos about the grid.
const ANIMATED_EDITS = new Set(['move', 'remove', 'undo', 'redo', 'keepVersion', 'keepCurrent', 'merge']);

export async function edit(request) {
  if (!state.key) return;
  try {
    if (state.doc?.partial) await wholeList;  // an edit names images the first look may not
    if (ANIMATED_EDITS.has(request.op)) animateNextDraw();
    const doc = await api(`/api/documents/${state.key}/edits`, {method: 'POST', body: JSON.stringify(request)});
    // The reply can be older than an event already drawn (a save's end): whether a save runs is
    // taken from the events, which arrive in order, never from a reply.
    if (state.doc && state.doc.key === doc.key) doc.saving = state.doc.saving;
    drawDocument(doc);
    return doc;
  } catch (error) {
    showMessage(error.message);
    return null;
  }
}
