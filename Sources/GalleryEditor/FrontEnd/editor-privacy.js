// Privacy (issue 32): a badge on each photo that carries a location or identity fields, the
// gallery's line, "Remove location…" (one edit, undone as any other) and "Share a copy…". The
// server reads what photos carry from their bytes; the page asks once the grid has painted,
// and again after each change, one request at a time. A module of the page's script (editor.js
// says how they fit together).

import {state, $, element, icon, showMessage, api} from './editor.js';
import {edit, setStatus, drawStatus} from './editor-grid.js';

const PIN = 'M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z';
const PERSON = 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm0 2c-3 0-8 1.5-8 4.5V21h16v-2.5c0-3-5-4.5-8-4.5z';

let privacy = null;  // the server's report, with the key of its gallery
let timer = null, running = false, again = false, busy = false, opener = null, mode = null;

/// Names the cell of photo `id`: `base` (its place and caption or name), then what its badges say.
export function labelCell(cell, id, base) {
  cell.baseLabel = base;
  const carries = drawBadges(cell, id);
  cell.setAttribute('aria-label', carries ? `${base}. ${carries}` : base);
}

/// Draws the badges of photo `id` on its cell; returns what they say.
function drawBadges(cell, id) {
  const found = privacy?.key === state.key ? privacy.images[id] : null;
  const said = [];
  if (found?.location.length) said.push(['location', PIN, `Carries a location: ${found.location.join(', ')}`]);
  if (found?.identity.length) said.push(['identity', PERSON, `Carries identity fields: ${found.identity.join(', ')}`]);
  const text = said.map((badge) => badge[2]).join('. ');
  let box = cell.querySelector('.badges');
  if (box?.dataset.said === text) return text;
  box?.remove();
  if (!said.length) return text;
  box = element('span', {class: 'badges', dataset: {said: text}}, ...said.map(([kind, path, label]) =>
    element('span', {class: `badge ${kind}`, role: 'img', 'aria-label': label, title: label}, icon(path))));
  cell.querySelector('.cell-body').append(box);
  return text;
}

/// Asks again what the photos carry, once the page is idle (after the grid's first screen,
/// and after each view of the document: a strip, an undo, a photo added). Views that arrive
/// while a request runs make one more.
export function schedulePrivacy() {
  if (privacy && privacy.key !== state.key) privacy = null;
  drawLine();
  $('strip-button').disabled = state.doc?.state === 'editing disabled';
  clearTimeout(timer);
  timer = setTimeout(() => requestIdleCallback(loadPrivacy, {timeout: 2000}), 250);
}

async function loadPrivacy() {
  if (running) { again = true; return; }
  const key = state.key;
  if (!key || !state.doc) return;
  running = true;
  try {
    // A gallery's first report waits for the thumbnails drawn (3 s at most): reading every photo
    // competes with making them, and the first screen of photos comes first.
    if (!privacy) await Promise.race([new Promise((done) => setTimeout(done, 3000)), Promise.all(
      [...$('image-grid').querySelectorAll('img')].filter((img) => !img.complete).map((img) => new Promise((done) => {
        img.addEventListener('load', done, {once: true});
        img.addEventListener('error', done, {once: true});
      })))]);
    const found = await api(`/api/documents/${key}/privacy`);
    if (key === state.key) {
      privacy = {...found, key};
      drawLine();
      // The cells drawn get their badges in place: drawing the grid again would take away a drop's
      // placeholder, or a photo standing aside for it, in the middle of a drag.
      for (const cell of $('image-grid').querySelectorAll('.image-cell[data-id]')) labelCell(cell, cell.dataset.id, cell.baseLabel);
    }
  } catch {
    // The gallery closed meanwhile, say: the badges stay as they were, and the next view asks again.
  }
  running = false;
  if (again) { again = false; loadPrivacy(); }
}

/// The gallery's line, and its two actions, shown while the gallery has photos (the line says
/// what they carry once the server has read them).
function drawLine() {
  const summary = privacy?.key === state.key ? privacy.summary : 'Looking for locations and identity fields…';
  $('privacy-line').hidden = !state.doc?.images.length;
  if ($('privacy-summary').textContent !== summary) $('privacy-summary').textContent = $('privacy-summary').title = summary;
}

/// What a strip removed, in a sentence: the scope, the photos and their fields (the first few).
function removal(removed) {
  const photos = removed.changed.filter((photo) => photo.removed?.length);
  const listed = photos.slice(0, 5).map((photo) => `photo ${photo.position}: ${photo.removed.join(', ')}`);
  if (photos.length > 5) listed.push(`${photos.length - 5} more`);
  let text = removed.scope === 'nothing' ? 'Nothing was removed.'
    : `Removed ${removed.scope} from ${photos.length} of ${removed.imageCount} photos${listed.length ? ` (${listed.join('; ')})` : ''}.`;
  if (removed.renamed) text += ` Gave ${removed.renamed} photos neutral file names.`;
  if (removed.left.length) text += ` Left as they were: ${removed.left.map((photo) => `photo ${photo.position}: ${photo.reason}`).join('; ')}.`;
  return text;
}

// MARK: The dialog, for both actions: modal (the page behind it inert), Tab kept inside it,
// Escape or Cancel closes it, and the focus goes back to the button that opened it.

function openDialog(which) {
  if (!state.doc) return;
  mode = which;
  opener = document.activeElement;
  const share = which === 'share';
  $('privacy-form').reset();
  $('privacy-heading').textContent = share ? 'Share a copy' : 'Remove metadata';
  $('share-choice').hidden = !share;
  $('scope-none').hidden = !share;
  $('names-choice').hidden = share;
  $('privacy-submit').textContent = share ? 'Share' : 'Remove';
  $('privacy-status').textContent = '';
  $('privacy-dialog').showModal();
  $('privacy-dialog').querySelector('fieldset:not([hidden]) input:checked').focus();
}

function setBusy(text) {
  busy = Boolean(text);
  $('privacy-status').textContent = text;
  for (const button of $('privacy-dialog').querySelectorAll('button')) button.disabled = busy;
}

async function submit(event) {
  event.preventDefault();
  const data = new FormData($('privacy-form'));
  const scope = data.get('scope');
  if (mode === 'strip') {
    $('privacy-dialog').close();
    setStatus('Removing…', 'saving');  // every photo is read and rewritten; the reply's view ends it
    const doc = await edit({op: 'strip', scope, names: data.get('names') === 'on'});
    if (doc?.metadataRemoved) showMessage(removal(doc.metadataRemoved), 'info');
    else if (!doc && state.doc) drawStatus(state.doc);
    return;
  }
  setBusy('Writing the copy…');
  try {
    const done = await api(`/api/documents/${state.key}/share`, {method: 'POST', body: JSON.stringify({form: data.get('form'), scope})});
    setBusy('');
    $('privacy-dialog').close();
    showMessage(`Shared a copy: ${done.form === 'web' ? 'the web gallery' : 'the gallery'} “${done.name}” in ${done.folder}. `
      + removal(done.removed), 'info');
  } catch (error) {
    setBusy('');
    $('privacy-status').textContent = `Not shared: ${error.message}`;
    $('privacy-submit').focus();  // disabled while it ran, it had lost the focus
  }
}

export function startPrivacy() {
  const dialog = $('privacy-dialog');
  $('share-button').addEventListener('click', () => openDialog('share'));
  $('strip-button').addEventListener('click', () => openDialog('strip'));
  $('privacy-form').addEventListener('submit', submit);
  $('privacy-cancel').addEventListener('click', () => dialog.close());
  dialog.addEventListener('cancel', (event) => { if (busy) event.preventDefault(); });
  dialog.addEventListener('close', () => { if (opener?.isConnected) opener.focus(); opener = null; });
  dialog.addEventListener('keydown', (event) => {
    // The page's own keys (Ctrl+Z, Ctrl+S) do not reach the gallery behind the dialog.
    event.stopPropagation();
    if (event.key !== 'Tab') return;
    const first = dialog.querySelector('fieldset:not([hidden]) input:checked');
    const last = $('privacy-cancel');
    if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
    else if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
  });
}
