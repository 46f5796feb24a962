// The gallery editor's page. Plain JavaScript, no framework, no build step, served by
// imagegallery-editor from files compiled into it. The server decides what every edit means
// (the document layer); the page asks for edits and draws the views the server pushes.
//
// Text from files (titles, captions, file names) only ever reaches the page through
// textContent and value, never through markup, so it cannot become markup.
//
// This file holds the shared state, the helpers and the routing; each part of the page has a
// file of its own (editor-browser, -grid, -keys, -drops, -detail), and editor-start.js, loaded
// last, attaches the listeners and starts. They are classic deferred scripts: one global scope,
// run in the order index.html lists them.
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
  dismissedNotice: null, // the document's notice the user dismissed (shown again if it changes)
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
