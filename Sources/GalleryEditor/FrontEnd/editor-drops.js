// Two galleries side by side, and drops from other programs (files, images and links).
// A module of the page's script (editor.js says how they fit together).

import {page, state, $, element, showMessage, api, leaveDocument} from './editor.js';
import {drawDocument, drawGrid, edit} from './editor-grid.js';
import {dropIndex, dragEnd} from './editor-keys.js';

// MARK: Two galleries side by side: a drag moves images between them, Ctrl+drag copies

export async function openBeside(key) {
  const previous = state.beside;
  state.beside = null;
  $('beside-pane').hidden = true;
  if (previous && previous.key !== key) {
    // Its cells go, their loads cancelled, before its document closes (leaveDocument), which it
    // is not if the page now shows that gallery itself.
    leaveDocument(previous.key);
    $('beside-grid').replaceChildren();
  }
  if (key && key !== state.key) {
    try {
      state.beside = {key, doc: await api(`/api/documents/${key}`)};
      drawBeside(state.beside.doc);
    } catch (error) {
      showMessage(`Cannot open the other gallery: ${error.message}`);
    }
  }
  // The menu of other galleries reads every gallery of the folder: after the grid's first screen.
  requestIdleCallback(() => fillBesideChoices(), {timeout: 1000});
}

async function fillBesideChoices() {
  if (!state.key) return;
  if (!state.listing) {
    try { state.listing = await api('/api/galleries'); } catch { return; }
  }
  const select = $('beside-select');
  const options = state.listing.galleries.filter((gallery) => gallery.key !== state.key).map((gallery) => {
    const option = element('option', {value: gallery.key, text: gallery.title ?? gallery.fileName});
    if (state.beside && state.beside.key === gallery.key) option.selected = true;
    return option;
  });
  select.replaceChildren(element('option', {value: '', text: 'No other gallery'}), ...options);
}

export function drawBeside(doc) {
  if (!state.beside || doc.key !== state.beside.key) return;
  state.beside.doc = doc;
  $('beside-pane').hidden = false;
  $('beside-title').textContent = doc.title || doc.fileName;
  $('beside-status').textContent = doc.saving ? 'Saving…' : doc.edited ? 'Edited' : 'Saved';
  $('beside-grid').replaceChildren(...doc.images.map((image, index) => {
    const cell = element('div', {class: 'image-cell', role: 'option', draggable: 'true', tabindex: '-1', dataset: {id: image.id},
      'aria-label': `${index + 1} of ${doc.images.length}: ${image.caption || image.filename || ''}`},
      element('div', {class: 'frame'},
        element('img', {src: `/api/documents/${doc.key}/images/${image.id}/thumbnail`, alt: '', loading: 'lazy', draggable: 'false'})),
      element('span', {class: 'name', text: image.filename ?? image.id.slice(0, 8)}));
    cell.addEventListener('dragstart', (event) => {
      state.dragIds = [image.id];
      state.dragSource = doc.key;
      event.dataTransfer.effectAllowed = 'copyMove';
      event.dataTransfer.setData('application/x-imagegallery-images', JSON.stringify({key: doc.key, ids: state.dragIds}));
      cell.classList.add('dragging');
      state.placeholder = newDropPlaceholder();
    });
    cell.addEventListener('dragend', dragEnd);
    return cell;
  }));
}

export function besideDragOver(event) {
  if (!state.beside || !state.dragIds || state.dragSource !== state.key) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = event.ctrlKey ? 'copy' : 'move';
  if (!state.placeholder) state.placeholder = newDropPlaceholder();
  placeDropPlaceholder(event, $('beside-grid'));
}

export function besideDrop(event) {
  if (!state.beside || !state.dragIds || state.dragSource !== state.key) return;
  event.preventDefault();
  const grid = $('beside-grid');
  const order = [...grid.children];
  const index = order.indexOf(state.placeholder);
  const at = index === -1 ? state.beside.doc.images.length : order.slice(0, index).filter((cell) => cell.dataset.id).length;
  clearDropPlaceholder();
  transfer(state.key, state.beside.key, state.dragIds, at, event.ctrlKey);
}

export async function transfer(from, to, ids, at, copy) {
  try {
    const doc = await api(`/api/documents/${from}/edits`, {method: 'POST', body: JSON.stringify({op: 'transfer', ids, target: to, to: at, copy})});
    if (from === state.key) drawDocument(doc); else drawBeside(doc);
  } catch (error) {
    showMessage(`Cannot ${copy ? 'copy' : 'move'} the images: ${error.message}`);
  }
}

// MARK: Drops from other programs: files, and images or links from other pages

export function isExternal(event) {
  const types = [...event.dataTransfer.types];
  return !state.dragIds && (types.includes('Files') || types.includes('text/uri-list') || types.includes('text/html'));
}

export function externalDragOver(event) {
  event.preventDefault();
  event.dataTransfer.dropEffect = 'copy';
  if (!state.placeholder) state.placeholder = newDropPlaceholder();
  placeDropPlaceholder(event);
}

// MARK: The drop placeholder, and the room the photos beside it make

/// How far the photos either side of the drop point stand aside while a drag is held there.
const ROOM_PX = 12;
/// The cells standing aside, each with its offset: to put them back, and to decide the drop from
/// where they rest (deciding from where they stand would move the drop point as they move).
const standingAside = new Map();

export function newDropPlaceholder() {
  return element('div', {class: 'drop-placeholder', 'aria-hidden': 'true'});
}

export function placeDropPlaceholder(event, grid = $('image-grid')) {
  const cells = [...grid.querySelectorAll('.image-cell')];
  const before = cells.find((cell) => {
    const box = cell.getBoundingClientRect();
    // Where it stands now, even mid-glide, is what its transform says at this moment.
    const left = standingAside.has(cell) ? box.left - new DOMMatrixReadOnly(getComputedStyle(cell).transform).m41 : box.left;
    return event.clientY < box.top + box.height / 2 && event.clientX < left + box.width / 2
      || event.clientY < box.top;
  });
  if (before) {
    if (state.placeholder.nextElementSibling !== before) grid.insertBefore(state.placeholder, before);
  } else if (grid.lastElementChild !== state.placeholder) {
    grid.append(state.placeholder);
  }
  makeRoom(grid);
}

/// A redraw while a drag is held (an autosave's answer, a photo's learned shape, a new row
/// height) keeps the placeholder before the photo it was before: `cells` are the grid's children
/// to be, and without it the redraw would take the drop point away and leave its row standing
/// aside until the next dragover. Says whether there is one to make room for again.
export function keepDropPoint(grid, cells) {
  const placeholder = state.placeholder;
  if (!placeholder || placeholder.parentElement !== grid) return false;
  const staying = new Set(cells);
  let next = placeholder.nextElementSibling;
  while (next && !staying.has(next)) next = next.nextElementSibling;
  cells.splice(next ? cells.indexOf(next) : cells.length, 0, placeholder);
  return true;
}

/// The photos in the placeholder's row stand aside from it, those before to the left and those
/// after to the right (a transform: the rows are not laid out again); CSS animates it unless
/// reduced motion is asked for.
export function makeRoom(grid) {
  const row = state.placeholder.offsetTop;
  const offsets = new Map();
  let after = false;
  for (const child of grid.children) {
    if (child === state.placeholder) after = true;
    else if (child.classList.contains('image-cell') && Math.abs(child.offsetTop - row) < 1) offsets.set(child, after ? ROOM_PX : -ROOM_PX);
  }
  for (const cell of standingAside.keys()) if (!offsets.has(cell)) cell.style.transform = '';
  standingAside.clear();
  for (const [cell, offset] of offsets) {
    cell.style.transform = `translateX(${offset}px)`;
    standingAside.set(cell, offset);
  }
}

/// The drag is over (dropped, left or abandoned): the placeholder goes and the photos close up.
export function clearDropPlaceholder() {
  state.placeholder?.remove();
  state.placeholder = null;
  for (const cell of standingAside.keys()) cell.style.transform = '';
  standingAside.clear();
}

/// The links a drop from another page carries: an <img src> of its HTML first (a dragged image),
/// else the URI list. Only http and https are taken; the server fetches them.
function droppedLinks(transfer) {
  const links = [];
  const html = transfer.getData('text/html');
  if (html) {
    // DOMParser builds an inert document: nothing in it loads or runs.
    const parsed = new DOMParser().parseFromString(html, 'text/html');
    for (const image of parsed.querySelectorAll('img[src]')) links.push(image.getAttribute('src'));
  }
  if (!links.length) {
    for (const line of transfer.getData('text/uri-list').split(/\r?\n/)) {
      if (line && !line.startsWith('#')) links.push(line.trim());
    }
  }
  return [...new Set(links)].filter((link) => /^https?:\/\//i.test(link));
}

export function externalDrop(event) {
  event.preventDefault();
  const grid = $('image-grid');
  const at = dropIndex(grid);
  clearDropPlaceholder();
  const files = [...event.dataTransfer.files];
  const links = files.length ? [] : droppedLinks(event.dataTransfer);
  if (!files.length && !links.length) {
    showMessage('Nothing to add: drop image files, or images and links from another page.');
    return;
  }
  addInOrder(at, files, links);
}

/// Adds files and links at `at`, as a drop does. Every placeholder shows at once; the items
/// then go in one after another, each before the image the drop landed on (wherever edits
/// meanwhile have moved it), so that they land in the order they were dropped, whichever would
/// have finished first. Other drops run beside them.
export function addInOrder(at, files, links) {
  const anchor = state.doc?.images[at]?.id ?? null;
  const position = () => {
    const images = state.doc?.images ?? [];
    const found = anchor === null ? -1 : images.findIndex((image) => image.id === anchor);
    return found >= 0 ? found : images.length;
  };
  const items = [...files.map((file) => ({label: file.name, send: () => upload(file, position())})),
                 ...links.map((link) => ({label: link, send: () => fetchLink(link, position())}))];
  let previous = Promise.resolve();
  items.forEach((item, offset) => { previous = addPending(at + offset, item.label, item.send, previous); });
}

/// The next placeholder cell's token.
let nextToken = 1;

/// A placeholder cell shows at once; it becomes the image when the server has it, or goes with
/// a message saying why not. Several can be on their way at once.
async function addPending(at, label, send, after = Promise.resolve()) {
  const token = nextToken++;
  const cell = element('div', {class: 'image-cell pending', role: 'row', 'aria-busy': 'true', dataset: {pending: String(token)}},
    element('div', {class: 'cell-body', role: 'gridcell'},
      element('div', {class: 'frame'}, element('span', {class: 'spinner', text: 'Adding…'})),
      element('span', {class: 'name', text: label})));
  state.pending.push({token, at, cell});
  if (state.doc) drawGrid(state.doc);
  try {
    await after;
    const added = await send();
    state.pending = state.pending.filter((item) => item.token !== token);
    drawDocument(added.document);
  } catch (error) {
    state.pending = state.pending.filter((item) => item.token !== token);
    if (state.doc) drawGrid(state.doc);
    // The server's message names what it refused too: the label is said once, where it leads.
    showMessage(`Could not add ${label}: ${error.message.replace(`${label}: `, '')}`);
  }
}

export async function upload(file, at) {
  const response = await fetch(`/api/documents/${state.key}/images?page=${page}&at=${at}&name=${encodeURIComponent(file.name)}`, {
    method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/octet-stream'}, body: file,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

function fetchLink(url, at) {
  return api(`/api/documents/${state.key}/fetch`, {method: 'POST', body: JSON.stringify({url, at})});
}

export function trashDragOver(event) {
  if (!state.dragIds) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = 'move';
  $('trash').classList.add('drop-target');
}

export function trashDrop(event) {
  if (!state.dragIds) return;
  event.preventDefault();
  $('trash').classList.remove('drop-target');
  edit({op: 'remove', ids: state.dragIds});
}
