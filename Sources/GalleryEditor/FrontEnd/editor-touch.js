// Reordering by touch. A touch screen starts no HTML5 drag, so a photo held still for a moment
// is lifted, follows the finger with the drop placeholder showing where it would land, and goes
// there when the finger lifts; a finger that moves at once scrolls the page as usual.
// A module of the page's script (editor.js says how they fit together).

import {state, $} from './editor.js';
import {edit} from './editor-grid.js';
import {dropIndex} from './editor-keys.js';
import {placeDropPlaceholder, newDropPlaceholder, clearDropPlaceholder} from './editor-drops.js';

/// How long a finger rests on a photo before it is lifted, and how far it may stray meanwhile.
const HOLD_MS = 350;
const STRAY_PX = 10;

let touch = null;  // {id, pointer, x, y, timer, lifted, cell}

function reset() {
  if (!touch) return;
  clearTimeout(touch.timer);
  touch.cell?.classList.remove('dragging');
  if (touch.lifted) { clearDropPlaceholder(); state.dragIds = null; state.dragSource = null; }
  touch = null;
}

export function startTouch() {
  const grid = $('image-grid');
  grid.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch' || touch || !state.doc || state.doc.state === 'editing disabled') return;
    const cell = event.target.closest('.image-cell[data-id]');
    if (!cell) return;
    touch = {id: cell.dataset.id, pointer: event.pointerId, x: event.clientX, y: event.clientY, lifted: false, cell};
    touch.timer = setTimeout(() => {
      if (!touch) return;
      touch.lifted = true;
      state.dragIds = [touch.id];
      state.dragSource = state.key;
      cell.classList.add('dragging');
      state.placeholder = newDropPlaceholder();
      placeDropPlaceholder({clientX: touch.x, clientY: touch.y}, grid);
      navigator.vibrate?.(10);
    }, HOLD_MS);
  });
  grid.addEventListener('pointermove', (event) => {
    if (!touch || event.pointerId !== touch.pointer) return;
    if (!touch.lifted) {
      if (Math.hypot(event.clientX - touch.x, event.clientY - touch.y) > STRAY_PX) reset();  // a scroll
      return;
    }
    touch.x = event.clientX;
    touch.y = event.clientY;
    placeDropPlaceholder(event, grid);
  });
  // Once a photo is lifted the finger drags it, not the page.
  grid.addEventListener('touchmove', (event) => { if (touch?.lifted) event.preventDefault(); }, {passive: false});
  grid.addEventListener('pointerup', (event) => {
    if (!touch || event.pointerId !== touch.pointer) return;
    if (touch.lifted && state.placeholder?.parentNode === grid) {
      const to = dropIndex(grid, [touch.id]);
      const id = touch.id;
      reset();
      edit({op: 'move', id, to});
      return;
    }
    reset();
  });
  grid.addEventListener('pointercancel', reset);
  // A long press opens no context menu over a photo being lifted.
  grid.addEventListener('contextmenu', (event) => { if (touch) event.preventDefault(); });
}
