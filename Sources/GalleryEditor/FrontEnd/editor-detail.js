// The detail view: one image at full size, zoom and pan, the paging strip, the download.
// A module of the page's script (editor.js says how they fit together), loaded by import() when
// the view is first shown, not by the first paint.

import {state, $, element, showMessage, api, leaveDocument} from './editor.js';
import {drawStatus, edit, wholeListShown} from './editor-grid.js';

// MARK: The detail view: the image at full size, zoom and pan, a centred paging strip

const view = {id: null, scale: 1, fitted: true, x: 0, y: 0};

let started = false;

export async function openDetail(key, id) {
  if (!started) { started = true; startDetail(); }
  // Its paging strip shows the neighbours, which a first look may name only by size.
  if (state.key === key && state.doc?.partial) await wholeListShown();
  if (state.key !== key || !state.doc) {
    const previous = state.key;
    state.key = key;
    if (previous !== key) {
      // Another gallery's image opened directly (a link, the address bar): that gallery is left
      // as openGallery leaves it, its cells and their loads gone before its document closes.
      state.doc = null;
      leaveDocument(previous);
      $('image-grid').replaceChildren();
    }
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
  $('detail-heading').textContent = `${image.caption || name}, ${index + 1} of ${doc.images.length}`;
  const caption = $('detail-caption');
  caption.value = image.caption ?? '';
  caption.readOnly = doc.state === 'editing disabled';
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
  $('zoom-level').textContent = `${Math.round(view.scale * 100)}%`;
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
  // A swipe across a fitted image pages, as on a phone: a drag that ends far to the side and
  // not far up or down. Zoomed in, a drag only pans.
  let swipe = null;
  stage.addEventListener('pointerdown', (event) => {
    swipe = pointers.size === 1 && view.fitted ? {x: event.clientX, y: event.clientY, viewX: view.x, viewY: view.y} : null;
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (swipe && event.type === 'pointerup') {
      const dx = event.clientX - swipe.x, dy = event.clientY - swipe.y;
      if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) { pageBy(dx < 0 ? 1 : -1); swipe = null; return; }
      if (Math.abs(dx) > 0 || Math.abs(dy) > 0) { view.x = swipe.viewX; view.y = swipe.viewY; view.fitted = true; applyView(); }
    }
    swipe = null;
  };
  stage.addEventListener('pointerup', release);
  stage.addEventListener('pointercancel', release);
  // Dragging the image out of the page (Alt-drag) hands the original file to the desktop or a
  // file manager. On Linux that is the browser's own drag of an image, left as it is: Firefox
  // and Chromium both offer it by XdndDirectSave (Firefox writes the file, Chromium gives its
  // bytes), named from the /display answer's Content-Disposition (the image's own name) and
  // holding what that URL gave (the original, for a type browsers show). DownloadURL,
  // "type:name:absolute URL", is Chromium's way where it has one (Windows, macOS); Firefox
  // ignores it. Nothing here may clear the drag's data: that would take the file away.
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
  // The caption, edited here too: Enter or leaving the field keeps it, Escape takes it back.
  const caption = $('detail-caption');
  const keep = () => {
    const image = state.doc?.images.find((candidate) => candidate.id === view.id);
    if (image && caption.value !== (image.caption ?? '')) edit({op: 'caption', id: image.id, caption: caption.value});
  };
  caption.addEventListener('change', keep);
  caption.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') { event.preventDefault(); keep(); $('stage').focus(); }
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      caption.value = state.doc?.images.find((candidate) => candidate.id === view.id)?.caption ?? '';
      $('stage').focus();
    }
  });
  document.addEventListener('keydown', detailKey);
  window.addEventListener('resize', () => { if (!$('detail-view').hidden && view.fitted) fit(); });
}
