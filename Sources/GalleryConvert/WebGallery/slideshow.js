// The slideshow of a web gallery's index (Specs/web-gallery.md, section 3.1): a classic script,
// since a page opened from file:// loads no modules. Its slides are the grid's tiles, in the
// gallery's order. gallery.js loads it, with gallery-data.js, on the first Play or slide link, so
// the index carries none of it. gallery-data.js lists every picture of each image (the tiles list
// only those a tile needs), and the slideshow asks for the one that fits the screen with a sizes
// of its own.
(function () {
  'use strict';
  var body = document.body;
  var tiles = Array.prototype.slice.call(document.querySelectorAll('.grid a'));
  var playButton = document.getElementById('play');
  if (!body || !tiles.length || !playButton) { return; }

  var INTERVALS = [1, 2, 3, 5, 8, 10, 15, 30];
  var DEFAULT_INTERVAL = 5;
  var SWIPE = 40;
  var data = window.IMAGEGALLERY && window.IMAGEGALLERY.images;
  var slides = tiles.map(function (tile, index) {
    var picture = tile.querySelector('img'), figure = tile.closest('figure');
    var listed = data && data[index] && data[index].srcset;
    var caption = figure && figure.querySelector('figcaption');
    return { number: index + 1, tile: tile, src: picture.getAttribute('src'), srcset: listed || picture.getAttribute('srcset') || '',
             aspect: picture.width / picture.height || 1, alt: picture.alt,
             caption: caption ? caption.textContent : '' };
  });

  var show = null, current = -1, wanted = -1, playing = false, timer = 0, fullscreen = false;
  var seconds = DEFAULT_INTERVAL, loop = true, ticket = 0;
  var parts = {};

  function element(kind, attributes, text) {
    var made = document.createElement(kind);
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    if (text) { made.textContent = text; }
    return made;
  }
  function button(name, label, glyph, action) {
    var made = element('button', { type: 'button', 'class': 'slideshow-' + name, 'aria-label': label, title: label }, glyph);
    made.addEventListener('click', function (event) { event.stopPropagation(); action(); });
    return made;
  }

  // Built on first use: a page that never plays carries none of it.
  function build() {
    show = element('div', { 'class': 'slideshow', id: 'slideshow', role: 'dialog', 'aria-modal': 'true',
                            'aria-label': 'Slideshow', hidden: '' });
    var stage = element('div', { 'class': 'slideshow-stage' });
    parts.pictures = [element('img', { 'class': 'slide', alt: '' }), element('img', { 'class': 'slide', alt: '' })];
    parts.pictures.forEach(function (picture) { picture.decoding = 'async'; stage.appendChild(picture); });
    parts.caption = element('p', { 'class': 'slideshow-caption' });
    parts.counter = element('span', { 'class': 'slideshow-counter' });
    parts.status = element('p', { 'class': 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true', id: 'slideshow-status' });
    var bar = element('div', { 'class': 'slideshow-bar' });
    parts.previous = button('previous', 'Previous image (\u2190)', '\u2039', function () { step(-1, true); });
    parts.pause = button('pause', 'Pause (Space)', '\u275A\u275A', function () { setPlaying(!playing); });
    parts.next = button('next', 'Next image (\u2192)', '\u203A', function () { step(1, true); });
    var every = element('label', { 'class': 'slideshow-interval' }, 'Every ');
    parts.interval = element('select', { 'aria-label': 'Seconds per image' });
    INTERVALS.forEach(function (value) {
      var option = element('option', { value: String(value) }, value + ' s');
      if (value === seconds) { option.selected = true; }
      parts.interval.appendChild(option);
    });
    parts.interval.addEventListener('change', function () { seconds = Number(parts.interval.value); schedule(); });
    every.appendChild(parts.interval);
    var repeat = element('label', { 'class': 'slideshow-loop' });
    parts.loop = element('input', { type: 'checkbox', checked: '' });
    parts.loop.addEventListener('change', function () { loop = parts.loop.checked; schedule(); });
    repeat.appendChild(parts.loop);
    repeat.appendChild(document.createTextNode(' Loop'));
    parts.close = button('close', 'Close slideshow (Esc)', '\u2715', close);
    [parts.previous, parts.pause, parts.next, parts.counter, every, repeat, parts.close].forEach(function (part) {
      bar.appendChild(part);
    });
    [stage, parts.caption, bar, parts.status].forEach(function (part) { show.appendChild(part); });
    body.appendChild(show);
    pointer(stage);
    document.addEventListener('fullscreenchange', function () {
      // The browser's own Escape (or F11) leaves full screen: the slideshow goes with it.
      if (fullscreen && !document.fullscreenElement) { fullscreen = false; if (!show.hidden) { close(); } }
    });
  }

  // A click on the left third goes back, elsewhere on; a swipe goes the way it is made.
  function pointer(stage) {
    var start = null, swiped = false;
    stage.addEventListener('pointerdown', function (event) { start = [event.clientX, event.clientY]; swiped = false; });
    stage.addEventListener('pointerup', function (event) {
      if (!start) { return; }
      var dx = event.clientX - start[0], dy = event.clientY - start[1];
      start = null;
      if (Math.abs(dx) > SWIPE && Math.abs(dx) > Math.abs(dy)) { swiped = true; step(dx < 0 ? 1 : -1, true); }
    });
    stage.addEventListener('pointercancel', function () { start = null; });
    stage.addEventListener('click', function (event) {
      if (swiped) { swiped = false; return; }
      var box = stage.getBoundingClientRect();
      step(event.clientX - box.left < box.width / 3 ? -1 : 1, true);
    });
  }

  // The picture as wide as the screen allows for its aspect: the browser picks the rendition
  // whose width covers that many device pixels.
  function load(picture, slide) {
    picture.sizes = 'min(100vw, ' + (100 * slide.aspect).toFixed(2) + 'vh)';
    if (picture.getAttribute('srcset') !== slide.srcset) { picture.srcset = slide.srcset; }
    if (picture.getAttribute('src') !== slide.src) { picture.src = slide.src; }
    picture.alt = slide.alt;
    picture.dataset.number = String(slide.number);
    // A picture that fails to decode is still shown (its alt text), never waited for forever.
    return picture.decode().catch(function () {});
  }

  function neighbour(index, direction) {
    var next = index + direction;
    if (next >= 0 && next < slides.length) { return next; }
    return loop ? (next + slides.length) % slides.length : -1;
  }

  // Shows slide `index` once its picture is decoded, so that no photo appears half drawn; the
  // one after it is loaded into the other picture meanwhile.
  function go(index) {
    wanted = index;
    var mine = ++ticket;
    var hidden = parts.pictures[parts.pictures[0].classList.contains('shown') ? 1 : 0];
    load(hidden, slides[index]).then(function () {
      if (mine !== ticket || show.hidden) { return; }
      var shown = parts.pictures[hidden === parts.pictures[0] ? 1 : 0];
      hidden.classList.add('shown');
      shown.classList.remove('shown');
      current = index;
      present(slides[index]);
      schedule();
      var after = neighbour(index, 1);
      if (after >= 0 && after !== index) { load(shown, slides[after]); }
    });
  }

  function present(slide) {
    parts.caption.textContent = slide.caption;
    parts.caption.hidden = !slide.caption;
    var position = 'Image ' + slide.number + ' of ' + slides.length;
    parts.counter.textContent = slide.number + ' / ' + slides.length;
    parts.status.textContent = slide.caption ? position + ': ' + slide.caption : position;
    body.dataset.slide = String(slide.number);
    history.replaceState(null, '', '#/slide/' + slide.number);
  }

  function step(direction, byHand) {
    var from = wanted >= 0 ? wanted : current, next = neighbour(from, direction);
    if (next < 0) { if (!byHand) { setPlaying(false); } return; }
    go(next);
  }

  function schedule() {
    clearTimeout(timer);
    if (!playing || show.hidden || current < 0) { return; }
    if (!loop && current === slides.length - 1) { setPlaying(false); return; }
    timer = setTimeout(function () { step(1, false); }, seconds * 1000);
  }

  function setPlaying(on) {
    playing = on;
    parts.pause.textContent = on ? '\u275A\u275A' : '\u25B6';
    parts.pause.setAttribute('aria-label', on ? 'Pause (Space)' : 'Play (Space)');
    parts.pause.title = parts.pause.getAttribute('aria-label');
    body.dataset.slideshow = on ? 'playing' : 'paused';
    schedule();
  }

  function open(index, play) {
    if (!show) { build(); }
    show.hidden = false;
    Array.prototype.forEach.call(document.querySelectorAll('body > header, body > main, body > footer'),
                                 function (part) { part.inert = true; });
    setPlaying(play);
    parts.pause.focus();
    go(index);
  }

  function close() {
    clearTimeout(timer);
    ++ticket;
    var stopped = current >= 0 ? current : Math.max(wanted, 0);
    show.hidden = true;
    current = wanted = -1;
    delete body.dataset.slideshow;
    delete body.dataset.slide;
    Array.prototype.forEach.call(document.querySelectorAll('body > header, body > main, body > footer'),
                                 function (part) { part.inert = false; });
    if (document.fullscreenElement) { document.exitFullscreen().catch(function () {}); }
    fullscreen = false;
    // Back on the picture where it stopped, as an image page's Escape returns to its tile.
    history.replaceState(null, '', '#i' + (stopped + 1));
    tiles[stopped].focus();
    tiles[stopped].scrollIntoView({ block: 'nearest' });
    body.dataset.focused = String(stopped + 1);
  }

  function slideInHash() {
    var match = /^#\/slide\/(\d+)$/.exec(location.hash);
    var number = match ? Number(match[1]) : 0;
    return number >= 1 && number <= slides.length ? number - 1 : -1;
  }

  playButton.hidden = false;
  playButton.addEventListener('click', function () {
    var focused = tiles.indexOf(document.activeElement);
    var start = focused >= 0 ? focused : Math.max(0, Number(body.dataset.focused || 1) - 1);
    open(start, true);
    // Full screen where the browser allows it; refused (no gesture, a policy, a frame), the
    // slideshow fills the window instead.
    if (show.requestFullscreen) {
      show.requestFullscreen().then(function () { fullscreen = true; }, function () {});
    }
  });

  document.addEventListener('keydown', function (event) {
    if (!show || show.hidden) { return; }
    // The grid behind keeps none of its keys while the slideshow is up.
    event.stopPropagation();
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var control = event.target && event.target.closest && event.target.closest('select, input');
    switch (event.key) {
      case 'Escape': close(); break;
      case 'ArrowRight': if (control) { return; } step(1, true); break;
      case 'ArrowLeft': if (control) { return; } step(-1, true); break;
      case ' ':
        // On a button Space presses it; elsewhere it pauses or resumes.
        if (control || event.target.closest('button')) { return; }
        setPlaying(!playing);
        break;
      default: return;
    }
    event.preventDefault();
  }, true);

  // A link to a slide (#/slide/N, 1-based as the page names) opens it, paused: a shared link
  // shows that picture and waits.
  function follow() {
    var index = slideInHash();
    if (index >= 0 && (!show || show.hidden || index !== current)) {
      if (show && !show.hidden) { go(index); } else { open(index, false); }
    }
  }
  window.addEventListener('hashchange', follow);
  follow();
}());
