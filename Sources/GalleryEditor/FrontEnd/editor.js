// The gallery editor's page. Plain JavaScript, no framework, no build step, served by
// imagegallery-editor from files compiled into it. The server decides what every edit means
// (the document layer); the page asks for edits and draws the views the server pushes.
//
// Text from files (titles, captions, file names) only ever reaches the page through
// textContent and value, never through markup, so it cannot become markup.
//
// The script is ES modules. This one holds the shared state and the helpers and imports
// nothing; each part of the page is a module of its own (editor-browser, -layout, -grid, -keys,
// -drops, -touch, -detail, -privacy), which exports what the others use and imports what it
// needs; editor-start.js, the one module index.html loads, imports them all, attaches the
// listeners and starts. No module runs anything at its top level but declarations, except
// editor-start.js's start(), so the order in which the browser evaluates them does not matter.
// Nothing is put on `window`: the browser tests read the page through the DOM alone.

export const page = crypto.randomUUID();
export const state = {
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
  placeholder: null,    // the cell a drag shows where it would drop (a drag inside the page, or from outside)
  renaming: null,       // the key of the gallery whose rename form is open
  dismissedNotice: null, // the document's notice the user dismissed (shown again if it changes)
};

export const $ = (id) => document.getElementById(id);

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/// An inline SVG icon of one path (24 × 24), hidden from assistive technology: the control that
/// holds it carries the name.
export function icon(path, className = 'icon') {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  const shape = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  shape.setAttribute('d', path);
  svg.append(shape);
  return svg;
}

/// A message where the action happened, until dismissed: a failure, or with kind 'info' a report.
export function showMessage(text, kind = '') {
  const box = element('div', {class: `message ${kind}`}, element('span', {text}));
  const dismiss = element('button', {type: 'button', text: 'Dismiss'});
  dismiss.addEventListener('click', () => box.remove());
  box.append(dismiss);
  $('messages').append(box);
}

export async function api(path, options = {}) {
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

/// Tells the server that this page no longer shows gallery `key` (it closes the document, with
/// its final save, once no page shows it), after the page has let go of every image of it.
/// An image of the gallery still loading when its document closes would fail, 409 (closed) or,
/// for a request still queued behind the browser's six connections to the server, 404: a
/// broken image and an error in the console. Removing `src` makes the browser cancel the load
/// (a cancelled load is no error) and a queued request never leaves; the close waits a task
/// so that the cancels Chromium schedules go out before it. A key the page still shows (the
/// gallery or the one beside it, which may be the same file) is not closed: the server counts
/// pages, not views, and would close it under the page.
export function leaveDocument(key) {
  if (!key || key === state.key || key === state.beside?.key) return;
  const prefix = `/api/documents/${key}/`;
  for (const img of document.querySelectorAll('img[src]')) {
    if (img.getAttribute('src').startsWith(prefix)) img.removeAttribute('src');
  }
  setTimeout(() => api(`/api/documents/${key}/close`, {method: 'POST'}).catch(() => {}));
}
