// The document browser: the opened folders' galleries, their actions, and imports.
// A module of the page's script (editor.js says how they fit together).

import {page, state, $, element, icon, showMessage, api, leaveDocument} from './editor.js';
import {setStatus, drawNotice} from './editor-grid.js';
import {upload} from './editor-drops.js';

// MARK: The document browser

export async function showBrowser() {
  const previous = state.key;
  state.key = null;
  state.doc = null;
  // The gallery's cells go, their loads cancelled, before its document closes (leaveDocument).
  leaveDocument(previous);
  $('image-grid').replaceChildren();
  drawNotice(null);
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

export function drawListing(listing) {
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
  // The listing changes whenever a program touches the folder: a card's menu that was open stays
  // open, and the focus stays on what had it, so the next click lands where the user aimed.
  const open = list.querySelector('.card-actions:not([hidden])')?.closest('li')?.dataset.key;
  const active = list.contains(document.activeElement) ? document.activeElement : null;
  const focused = active && {key: active.closest('li')?.dataset.key, label: active.getAttribute('aria-label'), tag: active.tagName};
  list.replaceChildren(...galleries.map(galleryCard));
  $('gallery-list-empty').hidden = galleries.length > 0;
  const card = (key) => [...list.children].find((node) => node.dataset.key === key);
  if (open && card(open)) {
    card(open).querySelector('.card-actions').hidden = false;
    card(open).querySelector('.card-menu-button').setAttribute('aria-expanded', 'true');
  }
  if (focused?.key && card(focused.key)) {
    const again = [...card(focused.key).querySelectorAll(focused.tag)]
      .find((node) => node.getAttribute('aria-label') === focused.label);
    again?.focus();
  }
}

function galleryCard(gallery) {
  const title = gallery.title ?? gallery.fileName;
  const link = element('a', {href: `#gallery=${gallery.key}`, 'aria-keyshortcuts': 'F2 Delete Control+D'},
    element('span', {class: 'cover'},
      element('img', {src: `/api/galleries/${gallery.key}/thumbnail?m=${gallery.modified}`, alt: '', loading: 'lazy'})),
    element('p', {class: 'title', text: title}));
  const count = gallery.imageCount == null ? '' : `${gallery.imageCount} ${gallery.imageCount === 1 ? 'image' : 'images'} · `;
  const details = element('p', {class: 'details',
    text: `${count}${formatSize(gallery.byteSize)} · ${new Date(gallery.modified).toLocaleString()} · ${gallery.fileName}`});
  const card = element('li', {class: 'gallery-card', dataset: {key: gallery.key}}, link, details);
  if (gallery.problem) card.append(element('p', {class: 'problem', text: gallery.problem}));
  // Rename, duplicate and delete sit behind the card's menu button, and on keys of the card's
  // link: F2, Ctrl+D and Delete, as a file manager has them.
  const rename = () => showRenameForm(card, gallery);
  const duplicate = () => libraryAction(gallery, 'duplicate', 'Cannot duplicate');
  const remove = async () => {
    if (await libraryAction(gallery, 'trash', 'Cannot move to the Trash')) {
      showMessage(`Moved ${gallery.fileName} to the Trash; restore it from the file manager's Trash.`);
    }
  };
  const menuId = `card-menu-${gallery.key}`;
  const toggle = element('button', {type: 'button', class: 'icon-button card-menu-button', 'aria-expanded': 'false',
    'aria-controls': menuId, 'aria-label': `More actions for ${title}`, title: 'More actions'});
  toggle.append(icon('M12 7a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm0 7a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm0 7a2 2 0 1 1 0-4 2 2 0 0 1 0 4z'));
  const actions = element('div', {class: 'card-actions', id: menuId, hidden: ''});
  const setOpen = (open) => { actions.hidden = !open; toggle.setAttribute('aria-expanded', String(open)); };
  toggle.addEventListener('click', () => {
    const open = actions.hidden;
    for (const other of document.querySelectorAll('.card-menu-button[aria-expanded="true"]')) other.click();
    setOpen(open);
    if (open) actions.querySelector('button').focus();
  });
  actions.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') { setOpen(false); toggle.focus(); }
  });
  const button = (text, shortcut, action) => {
    const node = element('button', {type: 'button', text, 'aria-label': `${text} ${title}`, 'aria-keyshortcuts': shortcut});
    node.addEventListener('click', () => { setOpen(false); action(); });
    actions.append(node);
  };
  button('Rename', 'F2', rename);
  button('Duplicate', 'Control+D', duplicate);
  button('Delete', 'Delete', remove);
  link.addEventListener('keydown', (event) => {
    if (event.key === 'F2') { event.preventDefault(); rename(); }
    else if (event.key === 'Delete') { event.preventDefault(); remove(); }
    else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'd') { event.preventDefault(); duplicate(); }
  });
  card.append(toggle, actions);
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

export async function importFile(file) {
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

export function importDrop(event) {
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

export async function createGallery(event) {
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
