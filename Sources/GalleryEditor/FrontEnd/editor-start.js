// The page's entry module, the one index.html loads (it imports the others): the routing,
// events from the server, and the start, which attaches every listener, once.
// A module of the page's script (editor.js says how they fit together).

import {page, state, $, api} from './editor.js';
import {showBrowser, drawListing, importFile, importDrop, createGallery} from './editor-browser.js';
import {openGallery, drawStatus, commitTitle, drawDocument, VIRTUAL_FROM, drawnRange, visibleRange, drawGrid, edit} from './editor-grid.js';
import {gridKey, sendBeside, removeSelected, documentKey, gridDragOver, gridDrop, play, useAsCover} from './editor-keys.js';
import {openBeside, drawBeside, besideDragOver, besideDrop, addInOrder, trashDragOver, trashDrop, clearDropPlaceholder} from './editor-drops.js';
import {startTouch} from './editor-touch.js';
import {startPrivacy} from './editor-privacy.js';

// MARK: Events from the server

function listen() {
  const source = new EventSource(`/api/events?page=${page}`);
  source.addEventListener('document', (event) => {
    const doc = JSON.parse(event.data);
    // A list the page has had is left out (a save's start and end): the held one, by version.
    if (!doc.images) {
      doc.images = [state.doc, state.beside?.doc].find((view) => view?.key === doc.key && view.imagesVersion === doc.imagesVersion)?.images;
      if (!doc.images) { if ([state.key, state.beside?.key].includes(doc.key)) api(`/api/documents/${doc.key}`).then(showView, () => {}); return; }
    }
    showView(doc);
  });
  source.addEventListener('library', (event) => {
    const galleries = JSON.parse(event.data);
    if (state.listing) drawListing({...state.listing, galleries});
  });
}

function showView(doc) {
  if (state.beside && doc.key === state.beside.key) { drawBeside(doc); return; }
  if (doc.key !== state.key) return;
  if (!$('detail-view').hidden) { state.doc = doc; drawStatus(doc); } else drawDocument(doc);
}

// MARK: Routing

function route() {
  const match = /^#gallery=([0-9a-f]+)(?:&image=([0-9a-f-]+))?(?:&beside=([0-9a-f]+))?$/.exec(location.hash);
  // The detail view's module is loaded when first shown: the first paint is the grid's.
  if (match && match[2]) import('./editor-detail.js').then((detail) => detail.openDetail(match[1], match[2]));
  else if (match) openGallery(match[1]).then(() => openBeside(match[3] ?? null));
  else { openBeside(null); showBrowser(); }
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
  $('import-file-button').addEventListener('click', () => $('import-file').click());
  $('import-file').addEventListener('change', (event) => {
    for (const file of event.target.files) importFile(file);
    event.target.value = '';
  });
  $('sort-order').addEventListener('change', () => state.listing && drawListing(state.listing));
  $('home-link').addEventListener('click', (event) => { event.preventDefault(); location.hash = ''; });
  // The title is committed by Enter (the focus stays in the field) or by leaving the field.
  const titleField = $('gallery-title');
  titleField.addEventListener('input', () => { titleField.dataset.typing = 'true'; });
  titleField.addEventListener('change', commitTitle);
  titleField.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') { event.preventDefault(); commitTitle(); }
  });
  $('undo-button').addEventListener('click', () => edit({op: 'undo'}));
  $('redo-button').addEventListener('click', () => edit({op: 'redo'}));
  $('save-button').addEventListener('click', () => edit({op: 'save'}));
  $('play-button').addEventListener('click', play);
  $('cover-button').addEventListener('click', () => useAsCover(false));
  $('uncover-button').addEventListener('click', () => useAsCover(true));
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
  // The rows are justified to the grid's width: a window made narrower, or the pane beside
  // opened, lays them out again.
  let gridWidth = 0;
  new ResizeObserver(([entry]) => {
    const width = entry.contentRect.width;
    if (Math.abs(width - gridWidth) < 0.5) return;
    gridWidth = width;
    if (state.doc && !$('gallery-view').hidden) drawGrid(state.doc);
  }).observe($('image-grid'));
  $('image-grid').addEventListener('keydown', gridKey);
  // dragenter is accepted as dragover is: when the element under the pointer changes (as it does
  // when the placeholder appears under it), Chromium takes the drop's operation from dragenter
  // alone, so a drop right after it would be refused, with no event to take the placeholder away.
  $('image-grid').addEventListener('dragenter', gridDragOver);
  $('image-grid').addEventListener('dragover', gridDragOver);
  $('image-grid').addEventListener('drop', gridDrop);
  $('image-grid').addEventListener('dragleave', (event) => {
    if (!state.dragIds && state.placeholder && !$('image-grid').contains(event.relatedTarget)) clearDropPlaceholder();
  });
  $('add-files-button').addEventListener('click', () => $('add-files').click());
  $('add-files').addEventListener('change', (event) => {
    if (state.doc) addInOrder(state.doc.images.length, [...event.target.files], []);
    event.target.value = '';
  });
  $('beside-move').addEventListener('click', () => sendBeside(false));
  $('beside-copy').addEventListener('click', () => sendBeside(true));
  $('beside-select').addEventListener('change', (event) => {
    location.hash = `gallery=${state.key}` + (event.target.value ? `&beside=${event.target.value}` : '');
  });
  $('beside-grid').addEventListener('dragenter', besideDragOver);
  $('beside-grid').addEventListener('dragover', besideDragOver);
  $('beside-grid').addEventListener('drop', besideDrop);
  $('trash').addEventListener('dragenter', trashDragOver);
  $('trash').addEventListener('dragover', trashDragOver);
  $('trash').addEventListener('dragleave', () => $('trash').classList.remove('drop-target'));
  $('trash').addEventListener('drop', trashDrop);
  $('trash').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); removeSelected(); }
  });
  document.addEventListener('keydown', documentKey);
  startTouch();
  startPrivacy();
  window.addEventListener('hashchange', route);
  listen();
  route();
}

start();
