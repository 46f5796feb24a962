// Events from the server, and the page's start: every listener is attached here, once,
// after the other scripts (loaded in order, deferred) have declared what it uses.
// A part of the page's script: editor.js has the shared state and helpers.
'use strict';

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
