// The gallery editor's page. Plain JavaScript, no framework, no build step, served by
// imagegallery-editor from files compiled into it. The server decides what every edit means
// (the document layer); the page asks for edits and draws the views the server pushes.
//
// Text from files (titles, captions, file names) only ever reaches the page through
// textContent and value, never through markup, so it cannot become markup.
'use strict';

const page = crypto.randomUUID();
const state = {
  listing: null,        // {folders, galleries}
  key: null,            // the open gallery's key
  doc: null,            // its view
  selected: new Set(),  // image ids
  anchor: null,         // the id a Shift-click extends from
  focusId: null,
  dragIds: null,        // ids being dragged inside the page
  pending: [],          // drops on their way in: {token, at, label}, drawn as placeholder cells
  beside: null,         // the gallery shown beside this one: {key, doc}
  dragSource: null,     // the key of the gallery a drag inside the page started in
  renaming: null,       // the key of the gallery whose rename form is open
};
let nextToken = 1;

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function showMessage(text) {
  const box = element('div', {class: 'message'}, element('span', {text}));
  const dismiss = element('button', {type: 'button', text: 'Dismiss'});
  dismiss.addEventListener('click', () => box.remove());
  box.append(dismiss);
  $('messages').append(box);
}

async function api(path, options = {}) {
  const separator = path.includes('?') ? '&' : '?';
  const response = await fetch(`${path}${separator}page=${page}`, {
    credentials: 'same-origin',
    headers: options.body ? {'Content-Type': 'application/json'} : {},
    ...options,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

// MARK: Routing

function route() {
  const match = /^#gallery=([0-9a-f]+)(?:&image=([0-9a-f-]+))?(?:&beside=([0-9a-f]+))?$/.exec(location.hash);
  if (match && match[2]) openDetail(match[1], match[2]);
  else if (match) openGallery(match[1]).then(() => openBeside(match[3] ?? null));
  else { openBeside(null); showBrowser(); }
}

// MARK: The document browser

async function showBrowser() {
  if (state.key) {
    api(`/api/documents/${state.key}/close`, {method: 'POST'}).catch(() => {});
  }
  state.key = null;
  state.doc = null;
  document.title = 'Galleries';
  $('crumb').textContent = '';
  setStatus('', '');
  $('gallery-view').hidden = true;
  $('detail-view').hidden = true;
  $('browser-view').hidden = false;
  try {
    drawListing(await api('/api/galleries'));
  } catch (error) {
    showMessage(`Cannot list the galleries: ${error.message}`);
  }
}

function drawListing(listing) {
  state.listing = listing;
  if ($('browser-view').hidden) return;
  const order = $('sort-order').value;
  const galleries = [...listing.galleries].sort(order === 'date'
    ? (a, b) => b.modified - a.modified
    : (a, b) => a.fileName.localeCompare(b.fileName, undefined, {numeric: true}));
  const list = $('gallery-list');
  // While a rename form is being filled in, a change another program makes to the folder waits:
  // redrawing now would throw away what the user is typing. Closing the form draws the latest.
  if (state.renaming && list.querySelector('.rename-form')) return;
  state.renaming = null;
  list.replaceChildren(...galleries.map(galleryCard));
  $('gallery-list-empty').hidden = galleries.length > 0;
}

function galleryCard(gallery) {
  const title = gallery.title ?? gallery.fileName;
  const link = element('a', {href: `#gallery=${gallery.key}`},
    element('img', {src: `/api/galleries/${gallery.key}/thumbnail?m=${gallery.modified}`, alt: '', loading: 'lazy'}),
    element('p', {class: 'title', text: title}));
  const count = gallery.imageCount == null ? '' : `${gallery.imageCount} ${gallery.imageCount === 1 ? 'image' : 'images'} · `;
  const details = element('p', {class: 'details',
    text: `${count}${formatSize(gallery.byteSize)} · ${new Date(gallery.modified).toLocaleString()} · ${gallery.fileName}`});
  const card = element('li', {class: 'gallery-card', dataset: {key: gallery.key}}, link, details);
  if (gallery.problem) card.append(element('p', {class: 'problem', text: gallery.problem}));
  const actions = element('div', {class: 'card-actions'});
  const button = (text, label, action) => {
    const node = element('button', {type: 'button', text, 'aria-label': `${text} ${title}`});
    node.addEventListener('click', action);
    actions.append(node);
  };
  button('Rename', 'rename', () => showRenameForm(card, gallery));
  button('Duplicate', 'duplicate', () => libraryAction(gallery, 'duplicate', 'Cannot duplicate'));
  button('Delete', 'delete', async () => {
    if (await libraryAction(gallery, 'trash', 'Cannot move to the Trash')) {
      showMessage(`Moved ${gallery.fileName} to the Trash; restore it from the file manager's Trash.`);
    }
  });
  card.append(actions);
  return card;
}

async function libraryAction(gallery, action, failure, body) {
  try {
    const result = await api(`/api/galleries/${gallery.key}/${action}`, {method: 'POST', body: JSON.stringify(body ?? {})});
    drawListing(await api('/api/galleries'));
    return result;
  } catch (error) {
    showMessage(`${failure} ${gallery.fileName}: ${error.message}`);
    return null;
  }
}

/// The title edited in place, and the file name too if the user changes it.
function showRenameForm(card, gallery) {
  const titleId = `rename-title-${gallery.key}`;
  const nameId = `rename-name-${gallery.key}`;
  const titleField = element('input', {id: titleId, maxlength: '500', required: ''});
  titleField.value = gallery.title ?? '';
  const nameField = element('input', {id: nameId, maxlength: '200', required: ''});
  nameField.value = gallery.fileName.replace(/\.imagegallery$/i, '');
  const save = element('button', {type: 'submit', text: 'Save'});
  const cancel = element('button', {type: 'button', text: 'Cancel'});
  const form = element('form', {class: 'rename-form'},
    element('label', {for: titleId, text: 'Title'}), titleField,
    element('label', {for: nameId, text: 'File name'}), nameField, save, cancel);
  const close = () => { state.renaming = null; drawListing(state.listing); };
  cancel.addEventListener('click', close);
  form.addEventListener('keydown', (event) => { if (event.key === 'Escape') close(); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    state.renaming = null;
    const request = {};
    if (titleField.value !== (gallery.title ?? '')) request.title = titleField.value;
    if (nameField.value !== gallery.fileName.replace(/\.imagegallery$/i, '')) request.fileName = nameField.value;
    if (!Object.keys(request).length) { drawListing(state.listing); return; }
    await libraryAction(gallery, 'rename', 'Cannot rename', request);
  });
  state.renaming = gallery.key;
  card.replaceChildren(form);
  titleField.focus();
}

function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

// MARK: Import: a folder of images, an archive, a comic book, seed JSON or a gallery

async function importFile(file) {
  $('import-status').textContent = `Importing ${file.name}…`;
  try {
    const response = await fetch(`/api/import?page=${page}&folder=0&name=${encodeURIComponent(file.name)}`, {
      method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/octet-stream'}, body: file,
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
    const names = body.galleries.map((gallery) => gallery.fileName).join(', ');
    $('import-status').textContent = `Imported ${file.name} as ${names}.`;
    for (const note of body.notes) showMessage(note);
    drawListing(await api('/api/galleries'));
  } catch (error) {
    $('import-status').textContent = '';
    showMessage(`Cannot import ${file.name}: ${error.message}`);
  }
}

/// A dropped folder becomes a new gallery of its image files, in name order, through the same
/// upload as a drop on a gallery (each checked by the server as add checks its inputs).
async function importFolder(entry) {
  const files = await new Promise((resolve) => {
    const reader = entry.createReader();
    const all = [];
    const more = () => reader.readEntries((entries) => {
      if (!entries.length) { resolve(all); return; }
      all.push(...entries.filter((item) => item.isFile));
      more();
    }, () => resolve(all));
    more();
  });
  files.sort((a, b) => a.name.localeCompare(b.name, undefined, {numeric: true}));
  $('import-status').textContent = `Importing ${entry.name}: ${files.length} files…`;
  let summary;
  try {
    summary = await api('/api/galleries', {method: 'POST', body: JSON.stringify({title: entry.name})});
  } catch (error) {
    showMessage(`Cannot import ${entry.name}: ${error.message}`);
    return;
  }
  state.key = summary.key;
  let added = 0;
  for (const item of files) {
    const file = await new Promise((resolve, reject) => item.file(resolve, reject));
    try {
      await upload(file, added);
      added += 1;
    } catch (error) {
      showMessage(`${entry.name}/${file.name}: ${error.message}`);
    }
  }
  await api(`/api/documents/${summary.key}/edits`, {method: 'POST', body: JSON.stringify({op: 'save'})}).catch(() => {});
  await api(`/api/documents/${summary.key}/close`, {method: 'POST'}).catch(() => {});
  state.key = null;
  $('import-status').textContent = `Imported ${entry.name}: ${added} of ${files.length} files.`;
  drawListing(await api('/api/galleries'));
}

function importDrop(event) {
  event.preventDefault();
  $('import-zone').classList.remove('drop-target');
  const entries = [...event.dataTransfer.items].map((item) => item.webkitGetAsEntry && item.webkitGetAsEntry());
  const files = [...event.dataTransfer.files];
  files.forEach((file, index) => {
    const entry = entries[index];
    if (entry && entry.isDirectory) importFolder(entry); else importFile(file);
  });
  if (!files.length) showMessage('Nothing to import: drop a folder or a file.');
}

async function createGallery(event) {
  event.preventDefault();
  const field = $('new-gallery-title');
  try {
    const summary = await api('/api/galleries', {method: 'POST', body: JSON.stringify({title: field.value})});
    field.value = '';
    location.hash = `gallery=${summary.key}`;
  } catch (error) {
    showMessage(`Cannot create the gallery: ${error.message}`);
  }
}

// MARK: The gallery

async function openGallery(key) {
  $('browser-view').hidden = true;
  $('detail-view').hidden = true;
  $('gallery-view').hidden = false;
  if (state.key === key && state.doc) {  // back from the detail view: the grid is as it was
    drawDocument(state.doc);
    focusCell(state.focusId);
    return;
  }
  if (state.key && state.key !== key) {
    api(`/api/documents/${state.key}/close`, {method: 'POST'}).catch(() => {});
  }
  state.key = key;
  state.selected.clear();
  try {
    drawDocument(await api(`/api/documents/${key}`));
  } catch (error) {
    showMessage(`Cannot open the gallery: ${error.message}`);
  }
}

function setStatus(text, kind) {
  const status = $('status');
  status.textContent = text;
  status.dataset.state = kind;
}

function drawStatus(doc) {
  if (doc.saving) setStatus('Saving…', 'saving');
  else if (doc.message) setStatus(doc.state === 'editing disabled' ? 'Read only' : 'Not saved', 'problem');
  else if (doc.edited) setStatus('Edited', 'edited');
  else setStatus('Saved', 'saved');
}

function drawDocument(doc) {
  if (doc.key !== state.key) return;
  const previous = state.doc;
  state.doc = doc;
  document.title = doc.title || doc.fileName;
  $('crumb').textContent = doc.title || doc.fileName;
  const titleField = $('gallery-title');
  if (document.activeElement !== titleField) titleField.value = doc.title;
  titleField.readOnly = doc.state === 'editing disabled';
  $('undo-button').disabled = !doc.canUndo;
  $('redo-button').disabled = !doc.canRedo;
  $('save-button').disabled = !doc.edited;
  drawStatus(doc);
  if (doc.message && (!previous || previous.message !== doc.message)) showMessage(doc.message);
  drawConflicts(doc);
  const ids = new Set(doc.images.map((image) => image.id));
  for (const id of [...state.selected]) if (!ids.has(id)) state.selected.delete(id);
  drawGrid(doc);
}

// MARK: The grid, virtualised: a large gallery has cells only for the rows on screen (and a few
// more), between two spacers that keep the page as tall as the whole grid, so 10,000 images
// scroll as smoothly as ten.

/// Galleries smaller than this draw every cell: the simplest page where it costs nothing.
const VIRTUAL_FROM = 300;
let drawnRange = {first: 0, last: 0};

/// The images to draw: all of a small gallery, else the rows in view and three on each side.
function visibleRange(count) {
  if (count < VIRTUAL_FROM) return {first: 0, last: count, top: 0, bottom: 0};
  const grid = $('image-grid');
  const size = Number($('cell-size').value);
  const sample = grid.querySelector('.image-cell');
  // One cell's box and the gap, measured once a cell exists; estimated from the slider before.
  const width = (sample ? sample.offsetWidth : size + 12) + 8;
  const height = (sample ? sample.offsetHeight : size + 60) + 8;
  const columns = Math.max(1, Math.floor((grid.clientWidth + 8) / width));
  const rows = Math.ceil(count / columns);
  const gridTop = grid.getBoundingClientRect().top;
  const firstRow = Math.max(0, Math.floor(-gridTop / height) - 3);
  const lastRow = Math.min(rows, Math.ceil((window.innerHeight - gridTop) / height) + 3);
  // The rows on the screen itself, whose thumbnails are fetched before those of the rows around them.
  const seen = {first: Math.max(0, Math.floor(-gridTop / height)) * columns,
    last: Math.max(0, Math.ceil((window.innerHeight - gridTop) / height)) * columns};
  return {first: firstRow * columns, last: Math.min(count, lastRow * columns), top: firstRow * height,
    bottom: Math.max(0, rows - lastRow) * height, columns, height, seen};
}

/// Scrolls the page so that the image at `index` is in view (a virtualised grid may not have drawn it).
function revealIndex(index) {
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

function drawGrid(doc) {
  const grid = $('image-grid');
  const hadFocus = grid.contains(document.activeElement) && document.activeElement.classList.contains('image-cell');
  const editing = document.activeElement && document.activeElement.closest && document.activeElement.closest('.image-cell input');
  if (editing) return;  // redrawn after the caption is committed
  const range = visibleRange(doc.images.length);
  drawnRange = range;
  const existing = new Map([...grid.children].map((cell) => [cell.dataset.id, cell]));
  const cells = doc.images.slice(range.first, range.last).map((image, offset) => {
    let cell = existing.get(image.id);
    if (!cell) cell = imageCell(image);
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
}

function imageCell(image) {
  const img = element('img', {src: `/api/documents/${state.key}/images/${image.id}/thumbnail`, alt: '', loading: 'lazy', draggable: 'false'});
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

async function edit(request) {
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

// MARK: Selection and keyboard

function select(id, event) {
  const ids = state.doc.images.map((image) => image.id);
  if (event && event.shiftKey && state.anchor) {
    const [from, to] = [ids.indexOf(state.anchor), ids.indexOf(id)].sort((a, b) => a - b);
    state.selected = new Set(ids.slice(from, to + 1));
  } else if (event && (event.ctrlKey || event.metaKey)) {
    if (state.selected.has(id)) state.selected.delete(id); else state.selected.add(id);
    state.anchor = id;
  } else {
    state.selected = new Set([id]);
    state.anchor = id;
  }
  state.focusId = id;
  drawGrid(state.doc);
  revealIndex(ids.indexOf(id));
  focusCell(id);
}

function focusCell(id) {
  const cell = [...$('image-grid').children].find((node) => node.dataset.id === id);
  if (cell) { cell.tabIndex = 0; cell.focus(); }
}

/// Where a drop lands, as an index in the whole gallery: before the image cell that follows the
/// placeholder (the grid may show only some of the images), counting only the images that stay.
function dropIndex(grid, moving = []) {
  const images = state.doc ? state.doc.images.map((image) => image.id) : [];
  let next = placeholder && placeholder.parentNode === grid ? placeholder.nextElementSibling : null;
  while (next && !next.dataset.id) next = next.nextElementSibling;
  let limit = next ? images.indexOf(next.dataset.id) : -1;
  if (limit === -1) {
    const drawn = [...grid.querySelectorAll('.image-cell[data-id]')];
    const last = drawn.length ? images.indexOf(drawn[drawn.length - 1].dataset.id) : -1;
    limit = placeholder && placeholder.parentNode === grid && last !== -1 ? last + 1 : images.length;
  }
  return images.slice(0, limit).filter((id) => !moving.includes(id)).length;
}

function columns() {
  const cells = [...$('image-grid').querySelectorAll('.image-cell')];
  if (cells.length < 2) return 1;
  const top = cells[0].offsetTop;
  const index = cells.findIndex((cell) => cell.offsetTop !== top);
  return index === -1 ? cells.length : index;
}

function gridKey(event) {
  if (!state.doc || $('gallery-view').hidden) return;
  const ids = state.doc.images.map((image) => image.id);
  const index = ids.indexOf(state.focusId);
  const steps = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns(), ArrowDown: columns()};
  if (event.key in steps && index !== -1) {
    event.preventDefault();
    const target = Math.max(0, Math.min(ids.length - 1, index + steps[event.key]));
    if (event.ctrlKey || event.metaKey) {
      if (target !== index) edit({op: 'move', id: ids[index], to: target});
      return;
    }
    select(ids[target], event.shiftKey ? {shiftKey: true} : null);
  } else if (event.key === 'Home' || event.key === 'End') {
    event.preventDefault();
    if (ids.length) select(ids[event.key === 'Home' ? 0 : ids.length - 1], null);
  } else if (event.key === 'Delete' || event.key === 'Backspace') {
    event.preventDefault();
    removeSelected();
  } else if (event.key === 'Enter' && state.focusId) {
    event.preventDefault();
    location.hash = `gallery=${state.key}&image=${state.focusId}`;
  } else if (event.key === ' ') {
    event.preventDefault();
    if (state.focusId) select(state.focusId, {ctrlKey: true});
  } else if ((event.key === 'm' || event.key === 'c') && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    sendBeside(event.key === 'c');
  }
}

/// The keyboard's way (and the beside pane's buttons') to do what a drag onto the other
/// gallery does: the selection, or else the focused image, to the end of the gallery beside.
function sendBeside(copy) {
  if (!state.beside || !state.beside.doc) {
    showMessage(`Choose a gallery to show beside this one first, then ${copy ? 'copy' : 'move'} images to it.`);
    return;
  }
  const ids = state.selected.size ? [...state.selected] : (state.focusId ? [state.focusId] : []);
  if (!ids.length) return;
  transfer(state.key, state.beside.key, ids, state.beside.doc.images.length, copy);
}

function removeSelected() {
  const ids = state.selected.size ? [...state.selected] : (state.focusId ? [state.focusId] : []);
  if (ids.length) edit({op: 'remove', ids});
}

function documentKey(event) {
  if (!state.key) return;
  const control = event.ctrlKey || event.metaKey;
  if (control && event.key.toLowerCase() === 'z') {
    event.preventDefault();
    edit({op: event.shiftKey ? 'redo' : 'undo'});
  } else if (control && event.key.toLowerCase() === 'y') {
    event.preventDefault();
    edit({op: 'redo'});
  } else if (control && event.key.toLowerCase() === 's') {
    event.preventDefault();
    edit({op: 'save'});
  }
}

// MARK: Dragging inside the page: reorder, and the trash

let placeholder = null;

function dragStart(event) {
  const id = event.currentTarget.dataset.id;
  if (!state.selected.has(id)) { state.selected = new Set([id]); state.anchor = id; }
  // The dragged image first: a reorder moves it; the trash and a transfer take the whole selection.
  state.dragIds = [id, ...[...state.selected].filter((other) => other !== id)];
  state.dragSource = state.key;
  event.dataTransfer.effectAllowed = 'copyMove';
  event.dataTransfer.setData('application/x-imagegallery-images', JSON.stringify({key: state.key, ids: state.dragIds}));
  event.currentTarget.classList.add('dragging');
  placeholder = element('li', {class: 'drop-placeholder', 'aria-hidden': 'true'});
}

function dragEnd(event) {
  event.currentTarget.classList.remove('dragging');
  placeholder?.remove();
  placeholder = null;
  state.dragIds = null;
  state.dragSource = null;
  $('trash').classList.remove('drop-target');
}

function gridDragOver(event) {
  if (isExternal(event)) { externalDragOver(event); return; }
  if (!state.dragIds) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = state.dragSource !== state.key && event.ctrlKey ? 'copy' : 'move';
  if (!placeholder) placeholder = element('li', {class: 'drop-placeholder', 'aria-hidden': 'true'});
  placeDropPlaceholder(event, $('image-grid'));
}

function gridDrop(event) {
  if (isExternal(event)) { externalDrop(event); return; }
  if (!state.dragIds) return;
  event.preventDefault();
  const grid = $('image-grid');
  if (!placeholder || placeholder.parentNode !== grid) return;
  const moving = state.dragIds;
  const external = state.dragSource && state.dragSource !== state.key;
  // The target index counts only the images that stay where they are.
  const before = dropIndex(grid, external ? [] : moving);
  if (state.dragSource && state.dragSource !== state.key) {
    placeholder.remove();
    transfer(state.dragSource, state.key, moving, before, event.ctrlKey);
    return;
  }
  const id = moving[0];
  placeholder.remove();
  edit({op: 'move', id, to: before});
}

// MARK: Two galleries side by side: a drag moves images between them, Ctrl+drag copies

async function openBeside(key) {
  const previous = state.beside;
  if (previous && previous.key !== key) {
    api(`/api/documents/${previous.key}/close`, {method: 'POST'}).catch(() => {});
  }
  state.beside = null;
  $('beside-pane').hidden = true;
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

function drawBeside(doc) {
  if (!state.beside || doc.key !== state.beside.key) return;
  state.beside.doc = doc;
  $('beside-pane').hidden = false;
  $('beside-title').textContent = doc.title || doc.fileName;
  $('beside-status').textContent = doc.saving ? 'Saving…' : doc.edited ? 'Edited' : 'Saved';
  $('beside-grid').replaceChildren(...doc.images.map((image, index) => {
    const cell = element('li', {class: 'image-cell', role: 'option', draggable: 'true', tabindex: '-1', dataset: {id: image.id},
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
      placeholder = element('li', {class: 'drop-placeholder', 'aria-hidden': 'true'});
    });
    cell.addEventListener('dragend', dragEnd);
    return cell;
  }));
}

function besideDragOver(event) {
  if (!state.beside || !state.dragIds || state.dragSource !== state.key) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = event.ctrlKey ? 'copy' : 'move';
  if (!placeholder) placeholder = element('li', {class: 'drop-placeholder', 'aria-hidden': 'true'});
  placeDropPlaceholder(event, $('beside-grid'));
}

function besideDrop(event) {
  if (!state.beside || !state.dragIds || state.dragSource !== state.key) return;
  event.preventDefault();
  const grid = $('beside-grid');
  const order = [...grid.children];
  const index = order.indexOf(placeholder);
  const at = index === -1 ? state.beside.doc.images.length : order.slice(0, index).filter((cell) => cell.dataset.id).length;
  placeholder?.remove();
  transfer(state.key, state.beside.key, state.dragIds, at, event.ctrlKey);
}

async function transfer(from, to, ids, at, copy) {
  try {
    const doc = await api(`/api/documents/${from}/edits`, {method: 'POST', body: JSON.stringify({op: 'transfer', ids, target: to, to: at, copy})});
    if (from === state.key) drawDocument(doc); else drawBeside(doc);
  } catch (error) {
    showMessage(`Cannot ${copy ? 'copy' : 'move'} the images: ${error.message}`);
  }
}

// MARK: Drops from other programs: files, and images or links from other pages

function isExternal(event) {
  const types = [...event.dataTransfer.types];
  return !state.dragIds && (types.includes('Files') || types.includes('text/uri-list') || types.includes('text/html'));
}

function externalDragOver(event) {
  event.preventDefault();
  event.dataTransfer.dropEffect = 'copy';
  if (!placeholder) placeholder = element('li', {class: 'drop-placeholder', 'aria-hidden': 'true'});
  placeDropPlaceholder(event);
}

function placeDropPlaceholder(event, grid = $('image-grid')) {
  const cells = [...grid.querySelectorAll('.image-cell')];
  const before = cells.find((cell) => {
    const box = cell.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2 && event.clientX < box.left + box.width / 2
      || event.clientY < box.top;
  });
  if (before) grid.insertBefore(placeholder, before); else grid.append(placeholder);
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

function externalDrop(event) {
  event.preventDefault();
  const grid = $('image-grid');
  const at = dropIndex(grid);
  placeholder?.remove();
  placeholder = null;
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
function addInOrder(at, files, links) {
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

/// A placeholder cell shows at once; it becomes the image when the server has it, or goes with
/// a message saying why not. Several can be on their way at once.
async function addPending(at, label, send, after = Promise.resolve()) {
  const token = nextToken++;
  const cell = element('li', {class: 'image-cell pending', role: 'row', 'aria-busy': 'true', dataset: {pending: String(token)}},
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
    showMessage(`Could not add ${label}: ${error.message}`);
  }
}

async function upload(file, at) {
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

function trashDragOver(event) {
  if (!state.dragIds) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = 'move';
  $('trash').classList.add('drop-target');
}

function trashDrop(event) {
  if (!state.dragIds) return;
  event.preventDefault();
  $('trash').classList.remove('drop-target');
  edit({op: 'remove', ids: state.dragIds});
}

// MARK: The detail view: the image at full size, zoom and pan, a centred paging strip

const view = {id: null, scale: 1, fitted: true, x: 0, y: 0};

async function openDetail(key, id) {
  if (state.key !== key || !state.doc) {
    state.key = key;
    try {
      state.doc = await api(`/api/documents/${key}`);
    } catch (error) {
      showMessage(`Cannot open the gallery: ${error.message}`);
      return;
    }
  }
  const doc = state.doc;
  const index = doc.images.findIndex((image) => image.id === id);
  if (index === -1) { location.hash = `gallery=${key}`; return; }
  const image = doc.images[index];
  state.focusId = id;
  $('browser-view').hidden = true;
  $('gallery-view').hidden = true;
  $('detail-view').hidden = false;
  drawStatus(doc);
  const name = image.filename ?? `${image.id}.${image.mediaType.split('/')[1]}`;
  document.title = `${image.caption || name} – ${doc.title}`;
  $('crumb').textContent = `${doc.title} / ${index + 1} of ${doc.images.length}`;
  $('detail-caption').textContent = image.caption ?? '';
  const picture = $('detail-image');
  picture.alt = image.caption || name;
  picture.src = `/api/documents/${key}/images/${id}/display`;
  const download = `/api/documents/${key}/images/${id}?download=1`;
  $('download-link').href = download;
  $('download-link').setAttribute('download', name);
  picture.dataset.download = `${image.mediaType}:${name}:${new URL(download, location.href).href}`;
  view.id = id;
  fit();
  drawStrip(doc, index);
  $('stage').focus();
}

function drawStrip(doc, index) {
  const strip = $('strip');
  // Always nine slots, the current image in the middle one (seed 004's centred paging): slots
  // past either end stay empty, so the current image does not wander to the side.
  const items = [];
  for (let position = index - 4; position <= index + 4; position += 1) {
    const image = doc.images[position];
    if (!image) { items.push(element('li', {class: 'strip-item empty', 'aria-hidden': 'true'})); continue; }
    const link = element('a', {href: `#gallery=${doc.key}&image=${image.id}`,
      'aria-label': `${position + 1}: ${image.caption || image.filename || ''}`},
      element('img', {src: `/api/documents/${doc.key}/images/${image.id}/thumbnail`, alt: ''}));
    if (position === index) link.setAttribute('aria-current', 'page');
    items.push(element('li', {class: 'strip-item'}, link));
  }
  strip.replaceChildren(...items);
  // The current image in the middle of the strip (seed 004's centred paging).
  const current = strip.querySelector('[aria-current="page"]');
  if (current) {
    const box = strip.getBoundingClientRect();
    const item = current.parentNode.getBoundingClientRect();
    strip.scrollLeft += (item.left + item.width / 2) - (box.left + box.width / 2);
  }
}

function applyView() {
  $('detail-image').style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  $('stage').dataset.zoom = view.scale.toFixed(3);
}

function fit() {
  const picture = $('detail-image');
  const stage = $('stage');
  const place = () => {
    const width = picture.naturalWidth || 1;
    const height = picture.naturalHeight || 1;
    view.scale = Math.min(1, stage.clientWidth / width, stage.clientHeight / height);
    view.x = (stage.clientWidth - width * view.scale) / 2;
    view.y = (stage.clientHeight - height * view.scale) / 2;
    view.fitted = true;
    applyView();
  };
  if (picture.complete && picture.naturalWidth) place(); else picture.addEventListener('load', place, {once: true});
}

function zoom(factor, centerX, centerY) {
  const stage = $('stage').getBoundingClientRect();
  const x = (centerX ?? stage.left + stage.width / 2) - stage.left;
  const y = (centerY ?? stage.top + stage.height / 2) - stage.top;
  const scale = Math.min(16, Math.max(0.05, view.scale * factor));
  // The point under the cursor stays where it is.
  view.x = x - (x - view.x) * (scale / view.scale);
  view.y = y - (y - view.y) * (scale / view.scale);
  view.scale = scale;
  view.fitted = false;
  applyView();
}

function pageBy(step) {
  const doc = state.doc;
  const index = doc.images.findIndex((image) => image.id === view.id);
  const target = Math.max(0, Math.min(doc.images.length - 1, index + step));
  if (target !== index) location.hash = `gallery=${doc.key}&image=${doc.images[target].id}`;
}

function detailKey(event) {
  if ($('detail-view').hidden || (event.target.closest && event.target.closest('input'))) return;
  const actions = {
    ArrowRight: () => pageBy(1), ArrowLeft: () => pageBy(-1),
    Home: () => pageBy(-Infinity), End: () => pageBy(Infinity),
    Escape: () => { location.hash = `gallery=${state.key}`; },
    '+': () => zoom(1.25), '=': () => zoom(1.25), '-': () => zoom(0.8), '0': fit,
  };
  // Shift+arrows pan, a tenth of the stage at a time, as dragging does.
  const pans = {ArrowRight: [-1, 0], ArrowLeft: [1, 0], ArrowDown: [0, -1], ArrowUp: [0, 1]};
  if (event.shiftKey && event.key in pans && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    const stage = $('stage');
    view.x += pans[event.key][0] * stage.clientWidth / 10;
    view.y += pans[event.key][1] * stage.clientHeight / 10;
    view.fitted = false;
    applyView();
    return;
  }
  const action = actions[event.key];
  if (action && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); action(); }
}

function startDetail() {
  const stage = $('stage');
  const picture = $('detail-image');
  stage.addEventListener('wheel', (event) => {
    event.preventDefault();
    // A trackpad pinch arrives as a wheel event with ctrlKey; both zoom about the cursor.
    zoom(Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.002)), event.clientX, event.clientY);
  }, {passive: false});
  const pointers = new Map();
  let pinch = null;
  stage.addEventListener('pointerdown', (event) => {
    if (event.altKey) return;  // Alt-drag drags the image out of the page instead
    stage.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a.x - b.x, a.y - b.y);
    }
  });
  stage.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      zoom(distance / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2);
      pinch = distance;
    } else if (pointers.size === 1) {
      view.x += event.clientX - last.x;
      view.y += event.clientY - last.y;
      view.fitted = false;
      applyView();
    }
  });
  const release = (event) => { pointers.delete(event.pointerId); if (pointers.size < 2) pinch = null; };
  stage.addEventListener('pointerup', release);
  stage.addEventListener('pointercancel', release);
  // Dragging the image out of the page (Alt-drag) hands the original file to the desktop or a
  // file manager: Chromium's DownloadURL, "type:name:absolute URL".
  picture.addEventListener('dragstart', (event) => {
    if (!event.altKey) { event.preventDefault(); return; }
    event.dataTransfer.setData('DownloadURL', picture.dataset.download);
    event.dataTransfer.effectAllowed = 'copy';
  });
  $('download-link').addEventListener('dragstart', (event) => {
    event.dataTransfer.setData('DownloadURL', picture.dataset.download);
    event.dataTransfer.effectAllowed = 'copy';
  });
  $('detail-back').addEventListener('click', () => { location.hash = `gallery=${state.key}`; });
  $('zoom-in').addEventListener('click', () => zoom(1.25));
  $('zoom-out').addEventListener('click', () => zoom(0.8));
  $('zoom-fit').addEventListener('click', fit);
  document.addEventListener('keydown', detailKey);
  window.addEventListener('resize', () => { if (!$('detail-view').hidden && view.fitted) fit(); });
}

// MARK: Events from the server

function listen() {
  const source = new EventSource(`/api/events?page=${page}`);
  source.addEventListener('document', (event) => {
    const doc = JSON.parse(event.data);
    if (state.beside && doc.key === state.beside.key) { drawBeside(doc); return; }
    if (doc.key !== state.key) return;
    if (!$('detail-view').hidden) { state.doc = doc; drawStatus(doc); } else drawDocument(doc);
  });
  source.addEventListener('library', (event) => {
    const galleries = JSON.parse(event.data);
    if (state.listing) drawListing({...state.listing, galleries});
  });
}

// MARK: Start

function start() {
  $('new-gallery-form').addEventListener('submit', createGallery);
  $('import-zone').addEventListener('dragover', (event) => {
    if (![...event.dataTransfer.types].includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    $('import-zone').classList.add('drop-target');
  });
  $('import-zone').addEventListener('dragleave', () => $('import-zone').classList.remove('drop-target'));
  $('import-zone').addEventListener('drop', importDrop);
  $('import-file').addEventListener('change', (event) => {
    for (const file of event.target.files) importFile(file);
    event.target.value = '';
  });
  $('sort-order').addEventListener('change', () => state.listing && drawListing(state.listing));
  $('home-link').addEventListener('click', (event) => { event.preventDefault(); location.hash = ''; });
  $('gallery-title').addEventListener('change', (event) => edit({op: 'title', title: event.target.value}));
  $('gallery-title').addEventListener('keydown', (event) => { if (event.key === 'Enter') event.target.blur(); });
  $('undo-button').addEventListener('click', () => edit({op: 'undo'}));
  $('redo-button').addEventListener('click', () => edit({op: 'redo'}));
  $('save-button').addEventListener('click', () => edit({op: 'save'}));
  $('keep-current-button').addEventListener('click', () => edit({op: 'keepCurrent'}));
  $('merge-button').addEventListener('click', () => edit({op: 'merge'}));
  $('cell-size').addEventListener('input', (event) => {
    document.documentElement.style.setProperty('--cell', `${event.target.value}px`);
    if (state.doc && !$('gallery-view').hidden) drawGrid(state.doc);
  });
  // A virtualised grid draws the rows that scroll into view, once per frame at most.
  let scrollQueued = false;
  const redrawVisible = () => {
    if (scrollQueued || !state.doc || $('gallery-view').hidden || state.doc.images.length < VIRTUAL_FROM) return;
    scrollQueued = true;
    requestAnimationFrame(() => {
      scrollQueued = false;
      const range = visibleRange(state.doc.images.length);
      if (range.first !== drawnRange.first || range.last !== drawnRange.last) drawGrid(state.doc);
    });
  };
  window.addEventListener('scroll', redrawVisible, {passive: true});
  window.addEventListener('resize', redrawVisible);
  $('image-grid').addEventListener('keydown', gridKey);
  $('image-grid').addEventListener('dragover', gridDragOver);
  $('image-grid').addEventListener('drop', gridDrop);
  $('image-grid').addEventListener('dragleave', (event) => {
    if (!state.dragIds && placeholder && !$('image-grid').contains(event.relatedTarget)) { placeholder.remove(); placeholder = null; }
  });
  $('add-files').addEventListener('change', (event) => {
    if (state.doc) addInOrder(state.doc.images.length, [...event.target.files], []);
    event.target.value = '';
  });
  $('beside-move').addEventListener('click', () => sendBeside(false));
  $('beside-copy').addEventListener('click', () => sendBeside(true));
  $('beside-select').addEventListener('change', (event) => {
    location.hash = `gallery=${state.key}` + (event.target.value ? `&beside=${event.target.value}` : '');
  });
  $('beside-grid').addEventListener('dragover', besideDragOver);
  $('beside-grid').addEventListener('drop', besideDrop);
  $('trash').addEventListener('dragover', trashDragOver);
  $('trash').addEventListener('dragleave', () => $('trash').classList.remove('drop-target'));
  $('trash').addEventListener('drop', trashDrop);
  $('trash').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); removeSelected(); }
  });
  document.addEventListener('keydown', documentKey);
  startDetail();
  window.addEventListener('hashchange', route);
  listen();
  route();
}

start();
