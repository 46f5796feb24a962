// The grid without a mouse, selection, and drags that start inside the page (reorder, trash).
// A module of the page's script (editor.js says how they fit together).

import {state, $, element, showMessage} from './editor.js';
import {revealIndex, drawGrid, edit, gridLayout, editCaption} from './editor-grid.js';
import {neighbour} from './editor-layout.js';
import {transfer, isExternal, externalDragOver, placeDropPlaceholder, externalDrop, newDropPlaceholder, clearDropPlaceholder} from './editor-drops.js';

// MARK: Selection and keyboard

export function select(id, event) {
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

export function focusCell(id) {
  const cell = [...$('image-grid').children].find((node) => node.dataset.id === id);
  if (cell) { cell.tabIndex = 0; cell.focus(); }
}

/// Where a drop lands, as an index in the whole gallery: before the image cell that follows the
/// placeholder (the grid may show only some of the images), counting only the images that stay.
export function dropIndex(grid, moving = []) {
  const images = state.doc ? state.doc.images.map((image) => image.id) : [];
  let next = state.placeholder && state.placeholder.parentNode === grid ? state.placeholder.nextElementSibling : null;
  while (next && !next.dataset.id) next = next.nextElementSibling;
  let limit = next ? images.indexOf(next.dataset.id) : -1;
  if (limit === -1) {
    const drawn = [...grid.querySelectorAll('.image-cell[data-id]')];
    const last = drawn.length ? images.indexOf(drawn[drawn.length - 1].dataset.id) : -1;
    limit = state.placeholder && state.placeholder.parentNode === grid && last !== -1 ? last + 1 : images.length;
  }
  return images.slice(0, limit).filter((id) => !moving.includes(id)).length;
}

export function gridKey(event) {
  if (!state.doc || $('gallery-view').hidden) return;
  const ids = state.doc.images.map((image) => image.id);
  const index = ids.indexOf(state.focusId);
  const steps = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1};
  if (event.key in steps && index !== -1) {
    event.preventDefault();
    // Up and Down go to the photo nearest in x in the row above or below (the rows are justified,
    // so a photo has no column).
    const vertical = event.key === 'ArrowUp' || event.key === 'ArrowDown';
    const target = vertical ? neighbour(gridLayout(), index, steps[event.key])
      : Math.max(0, Math.min(ids.length - 1, index + steps[event.key]));
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
  } else if (event.key === 'F2' && state.focusId) {
    event.preventDefault();
    editCaption(state.focusId);
  } else if (event.key === 'Enter' && state.focusId) {
    event.preventDefault();
    location.hash = `gallery=${state.key}&image=${state.focusId}`;
  } else if (event.key === ' ') {
    event.preventDefault();
    if (state.focusId) select(state.focusId, {ctrlKey: true});
  } else if (event.ctrlKey || event.metaKey || event.altKey) {
    return;
  } else if (event.key === 'm' || event.key === 'c') {
    event.preventDefault();
    sendBeside(event.key === 'c');
  } else if (event.key === 'p') {
    event.preventDefault();
    play();
  } else if (event.key.toLowerCase() === 'u') {
    event.preventDefault();
    useAsCover(event.shiftKey);
  }
}

/// The slideshow from the focused image: its module is loaded on the first Play only.
export function play() {
  if (state.doc?.images.length) import('./editor-slideshow.js').then((show) => show.play(state.focusId));
}

/// The focused image as the gallery's cover, or (unset) back to none: the first image stands for it.
export function useAsCover(unset) {
  if (unset || state.focusId) edit({op: 'cover', id: unset ? null : state.focusId});
}

/// The keyboard's way (and the beside pane's buttons') to do what a drag onto the other
/// gallery does: the selection, or else the focused image, to the end of the gallery beside.
export function sendBeside(copy) {
  if (!state.beside || !state.beside.doc) {
    showMessage(`Choose a gallery to show beside this one first, then ${copy ? 'copy' : 'move'} images to it.`);
    return;
  }
  const ids = state.selected.size ? [...state.selected] : (state.focusId ? [state.focusId] : []);
  if (!ids.length) return;
  transfer(state.key, state.beside.key, ids, state.beside.doc.images.length, copy);
}

export function removeSelected() {
  const ids = state.selected.size ? [...state.selected] : (state.focusId ? [state.focusId] : []);
  if (ids.length) edit({op: 'remove', ids});
}

export function documentKey(event) {
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

export function dragStart(event) {
  const id = event.currentTarget.dataset.id;
  if (!state.selected.has(id)) { state.selected = new Set([id]); state.anchor = id; }
  // The dragged image first: a reorder moves it; the trash and a transfer take the whole selection.
  state.dragIds = [id, ...[...state.selected].filter((other) => other !== id)];
  state.dragSource = state.key;
  event.dataTransfer.effectAllowed = 'copyMove';
  event.dataTransfer.setData('application/x-imagegallery-images', JSON.stringify({key: state.key, ids: state.dragIds}));
  event.currentTarget.classList.add('dragging');
  state.placeholder = newDropPlaceholder();
}

export function dragEnd(event) {
  event.currentTarget.classList.remove('dragging');
  clearDropPlaceholder();
  state.dragIds = null;
  state.dragSource = null;
  $('trash').classList.remove('drop-target');
}

export function gridDragOver(event) {
  if (isExternal(event)) { externalDragOver(event); return; }
  if (!state.dragIds) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = state.dragSource !== state.key && event.ctrlKey ? 'copy' : 'move';
  if (!state.placeholder) state.placeholder = newDropPlaceholder();
  placeDropPlaceholder(event, $('image-grid'));
}

export function gridDrop(event) {
  if (isExternal(event)) { externalDrop(event); return; }
  if (!state.dragIds) return;
  event.preventDefault();
  const grid = $('image-grid');
  if (!state.placeholder || state.placeholder.parentNode !== grid) return;
  const moving = state.dragIds;
  const external = state.dragSource && state.dragSource !== state.key;
  // The target index counts only the images that stay where they are.
  const before = dropIndex(grid, external ? [] : moving);
  if (state.dragSource && state.dragSource !== state.key) {
    clearDropPlaceholder();
    transfer(state.dragSource, state.key, moving, before, event.ctrlKey);
    return;
  }
  const id = moving[0];
  clearDropPlaceholder();
  edit({op: 'move', id, to: before});
}
