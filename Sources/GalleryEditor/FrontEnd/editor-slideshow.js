// The slideshow (issue 33): the gallery's images full screen, in the gallery's order, from the
// image selected. Loaded by import() on the first Play, never by the first paint: the page's
// budget (FrontEndFilesTests) counts what the first paint loads apart from what loads later.
// A module of the page's script (editor.js says how they fit together).

import {state, $, element, icon} from './editor.js';
import {select} from './editor-keys.js';

const PREVIOUS = 'M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z';
const NEXT = 'M8.6 5.4 10 4l8 8-8 8-1.4-1.4 6.6-6.6z';
const PAUSE = 'M7 5h3v14H7zm7 0h3v14h-3z';
const PLAY = 'M8 5v14l11-7z';
const ZOOM = 'M10 4a6 6 0 1 0 3.5 10.9l5.3 5.3 1.4-1.4-5.3-5.3A6 6 0 0 0 10 4zm0 2a4 4 0 1 1 0 8 4 4 0 0 1 0-8z';
const CLOSE = 'M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z';
const FADE_MS = 400;
/// How far a finger travels sideways, at least, for a swipe to page.
const SWIPE_PX = 50;

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const show = {
  root: null, id: null, playing: true, interval: 5, loop: true, zoomed: false, timer: null,
  token: 0,         // the latest slide asked for: a slower decode of an earlier one never shows over it
  pictures: new Map(),  // image id → a promise of its <img>, decoded: the current one and its neighbours
  wasFullscreen: false,
};

/// The long side, in device pixels, of the screen the slides fill: what the rendition is asked for.
function screenSide() {
  return Math.round(Math.max(screen.width, screen.height) * (devicePixelRatio || 1));
}

function images() { return state.doc?.images ?? []; }
function indexOf(id) { return images().findIndex((image) => image.id === id); }

/// The decoded picture of `image`, at the screen's size (the rendition route picks the size, never
/// the original of a large photo), or the original when zoomed. The slide shows only once decode()
/// has resolved, so no photo is ever seen half drawn; a picture that fails to decode shows as its
/// alt text rather than holding the show.
function picture(image, original = false) {
  const address = `/api/documents/${state.key}/images/${image.id}/`
    + (original ? 'display' : `rendition?side=${screenSide()}`);
  const key = `${image.id} ${address}`;
  if (!show.pictures.has(key)) {
    const img = element('img', {class: 'slide', alt: image.caption || image.filename || '', draggable: 'false'});
    img.src = address;
    show.pictures.set(key, img.decode().then(() => img, () => img));
  }
  return show.pictures.get(key);
}

/// Keeps the pictures of the slide shown and its two neighbours, and starts decoding those.
function preload(index) {
  const list = images();
  const wanted = [index, index + 1, index - 1].map((at) => list[(at + list.length) % list.length]).filter(Boolean);
  const keep = new Set(wanted.map((image) => `${image.id} /api/documents/${state.key}/images/${image.id}/rendition?side=${screenSide()}`));
  for (const key of show.pictures.keys()) if (!keep.has(key) && !key.startsWith(`${show.id} `)) show.pictures.delete(key);
  for (const image of wanted) picture(image);
}

function announce(index) {
  const image = images()[index];
  const where = `Image ${index + 1} of ${images().length}`;
  $('slide-caption').textContent = image.caption ?? '';
  $('slide-count').textContent = `${index + 1} / ${images().length}`;
  $('slide-live').textContent = image.caption ? `${image.caption}. ${where}` : where;
}

/// Shows the image at `index` once its picture is decoded, then (playing) waits the interval.
async function goTo(index, original = false) {
  const list = images();
  if (!list.length) { close(); return; }
  const image = list[(index + list.length) % list.length];
  const token = ++show.token;
  clearTimeout(show.timer);
  show.id = image.id;
  const img = await picture(image, original);
  if (token !== show.token || !show.root || show.root.hidden) return;
  const stage = $('slide-stage');
  const old = [...stage.querySelectorAll('img.slide')];
  img.classList.toggle('zoomed', original);
  stage.append(img);
  // The next animation frame paints the slide; Benchmarks/slideshow.py measures to this mark.
  requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('imagegallery-slide-painted')));
  if (old.length && !reducedMotion.matches && !original) {
    show.root.dataset.fades = String(Number(show.root.dataset.fades || 0) + 1);
    img.animate([{opacity: 0}, {opacity: 1}], {duration: FADE_MS, easing: 'ease-out'}).finished
      .then(() => old.forEach((node) => node !== img && node.remove()), () => {});
  } else {
    for (const node of old) if (node !== img) node.remove();
  }
  show.root.dataset.id = image.id;
  announce(indexOf(image.id));
  preload(indexOf(image.id));
  schedule();
}

/// The next slide after the interval, while playing: at the end it goes round with Loop, else stops.
function schedule() {
  clearTimeout(show.timer);
  if (!show.playing || show.zoomed) return;
  show.timer = setTimeout(() => step(1, true), show.interval * 1000);
}

function step(by, automatic = false) {
  const list = images();
  let index = indexOf(show.id) + by;
  if (index >= list.length || index < 0) {
    if (!show.loop) { if (automatic) setPlaying(false); return; }
    index = (index + list.length) % list.length;
  }
  show.zoomed = false;
  goTo(index);
}

function setPlaying(playing) {
  show.playing = playing;
  const button = $('slide-pause');
  button.replaceChildren(icon(playing ? PAUSE : PLAY));
  button.setAttribute('aria-label', playing ? 'Pause' : 'Resume');
  button.title = playing ? 'Pause (Space)' : 'Resume (Space)';
  show.root.dataset.playing = String(playing);
  $('slide-live').textContent = playing ? 'Playing' : 'Paused';
  schedule();
}

/// The original in place of the rendition, at its own size (scroll to see it all), or back.
function zoom() {
  show.zoomed = !show.zoomed;
  show.root.classList.toggle('zoomed', show.zoomed);
  const index = indexOf(show.id);
  goTo(index, show.zoomed);
}

function button(id, label, title, path, action) {
  const node = element('button', {type: 'button', id, class: 'icon-button', 'aria-label': label, title}, icon(path));
  node.addEventListener('click', action);
  return node;
}

function build() {
  const interval = element('select', {id: 'slide-interval'},
    ...[2, 3, 5, 8, 10, 15, 30].map((seconds) => element('option', {value: String(seconds), text: `${seconds} s`})));
  interval.value = String(show.interval);
  interval.addEventListener('change', () => { show.interval = Number(interval.value); schedule(); });
  const loop = element('input', {type: 'checkbox', id: 'slide-loop'});
  loop.checked = show.loop;
  loop.addEventListener('change', () => { show.loop = loop.checked; });
  const stage = element('div', {id: 'slide-stage', class: 'slide-stage'});
  const root = element('div', {id: 'slideshow', class: 'slideshow', role: 'dialog', 'aria-modal': 'true',
    'aria-label': 'Slideshow', tabindex: '-1'},
  stage,
  element('div', {class: 'slide-foot'},
    element('p', {id: 'slide-caption', class: 'slide-caption'}),
    element('div', {class: 'slide-controls'},
      button('slide-previous', 'Previous image', 'Previous (Left arrow)', PREVIOUS, () => step(-1)),
      button('slide-pause', 'Pause', 'Pause (Space)', PAUSE, () => setPlaying(!show.playing)),
      button('slide-next', 'Next image', 'Next (Right arrow)', NEXT, () => step(1)),
      element('span', {id: 'slide-count', class: 'slide-count'}),
      element('label', {for: 'slide-interval', text: 'Every'}), interval,
      element('label', {class: 'slide-loop'}, loop, 'Loop'),
      button('slide-zoom', 'Original size', 'Original size (Z)', ZOOM, zoom),
      button('slide-close', 'Leave the slideshow', 'Leave (Escape)', CLOSE, close))),
  element('p', {id: 'slide-live', class: 'visually-hidden', 'aria-live': 'polite'}));
  root.addEventListener('keydown', slideKey);
  // A click on the picture pages: its left third back, the rest on. A swipe (a touch screen's, or a
  // mouse's) pages too, and the click that ends it does nothing more.
  let swipe = null, swiped = false;
  stage.addEventListener('pointerdown', (event) => { swipe = {x: event.clientX, y: event.clientY}; swiped = false; });
  stage.addEventListener('pointerup', (event) => {
    if (!swipe || show.zoomed) return;
    const dx = event.clientX - swipe.x, dy = event.clientY - swipe.y;
    swipe = null;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy)) { swiped = true; step(dx < 0 ? 1 : -1); }
  });
  stage.addEventListener('click', (event) => {
    if (swiped || show.zoomed) { swiped = false; return; }
    const box = stage.getBoundingClientRect();
    step(event.clientX < box.left + box.width / 3 ? -1 : 1);
  });
  document.addEventListener('fullscreenchange', () => {
    // The browser's own way out of full screen (Escape, F11) ends the show as Escape does.
    if (!document.fullscreenElement && show.wasFullscreen && !root.hidden) close();
    show.wasFullscreen = !!document.fullscreenElement;
  });
  document.body.append(root);
  return root;
}

function slideKey(event) {
  if (event.target.closest('select, input') && event.key !== 'Escape') return;
  const actions = {
    ArrowRight: () => step(1), ArrowLeft: () => step(-1), ' ': () => setPlaying(!show.playing),
    Escape: close, z: zoom, Z: zoom, Home: () => { show.zoomed = false; goTo(0); },
    End: () => { show.zoomed = false; goTo(images().length - 1); },
  };
  const action = actions[event.key];
  // Nothing of the gallery under it answers a key while the show is on (the grid's Delete, say).
  event.stopPropagation();
  if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
  event.preventDefault();
  action();
}

/// The show's style sheet, loaded with the module (the first paint does without it); the show
/// waits for it, so it never appears unstyled.
function styleSheet() {
  return new Promise((done) => {
    const link = element('link', {rel: 'stylesheet', href: '/editor-slideshow.css'});
    link.addEventListener('load', done);
    link.addEventListener('error', done);
    document.head.append(link);
  });
}

/// Starts the slideshow at image `id`, full screen where the browser allows (the show runs in the
/// window when it refuses).
export async function play(id) {
  if (!images().length) return;
  show.styled ??= styleSheet();
  await show.styled;
  show.root ??= build();
  const root = show.root;
  for (const node of document.body.children) if (node !== root) node.inert = true;
  root.hidden = false;
  root.dataset.fades = '0';
  root.classList.remove('zoomed');
  show.zoomed = false;
  $('slide-stage').replaceChildren();
  show.pictures.clear();
  root.requestFullscreen?.().catch(() => {});
  root.focus();
  setPlaying(true);
  goTo(Math.max(0, indexOf(id)));
}

/// Leaves the show on the image it stopped at: selected and focused in the grid.
export function close() {
  const root = show.root;
  if (!root || root.hidden) return;
  clearTimeout(show.timer);
  show.token += 1;
  root.hidden = true;
  show.pictures.clear();
  $('slide-stage').replaceChildren();
  for (const node of document.body.children) node.inert = false;
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  if (show.id && indexOf(show.id) !== -1) select(show.id, null);
}
