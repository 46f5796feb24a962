(function () {
  'use strict';
  var body = document.body;
  if (!body) { return; }

  function modified(event) { return event.ctrlKey || event.metaKey || event.altKey; }

  // The grid: arrows move between tiles by position on screen, Enter opens (a link).
  function grid() {
    var tiles = Array.prototype.slice.call(document.querySelectorAll('.grid a'));
    if (!tiles.length) { return; }
    function go(index) {
      index = Math.max(0, Math.min(tiles.length - 1, index));
      tiles[index].focus();
      tiles[index].scrollIntoView({ block: 'nearest', inline: 'nearest' });
      body.dataset.focused = String(index + 1);
    }
    // The tile in the next row up or down nearest in x to this one.
    function vertical(from, direction) {
      var here = tiles[from].getBoundingClientRect(), middle = here.left + here.width / 2;
      var best = from, bestDistance = Infinity, row = null;
      for (var i = from + direction; i >= 0 && i < tiles.length; i += direction) {
        var box = tiles[i].getBoundingClientRect();
        if (Math.abs(box.top - here.top) < 2) { continue; }
        if (row === null) { row = box.top; } else if (Math.abs(box.top - row) >= 2) { break; }
        var distance = Math.abs(box.left + box.width / 2 - middle);
        if (distance < bestDistance) { bestDistance = distance; best = i; }
      }
      return best;
    }
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target && target.matches('.grid a')) { go(tiles.indexOf(target)); }
    document.addEventListener('keydown', function (event) {
      if (modified(event)) { return; }
      var current = tiles.indexOf(document.activeElement);
      switch (event.key) {
        case 'ArrowRight': go(current < 0 ? 0 : current + 1); break;
        case 'ArrowLeft': go(current < 0 ? 0 : current - 1); break;
        case 'ArrowDown': go(current < 0 ? 0 : vertical(current, 1)); break;
        case 'ArrowUp': go(current < 0 ? 0 : vertical(current, -1)); break;
        case 'Home': go(0); break;
        case 'End': go(tiles.length - 1); break;
        default: return;
      }
      event.preventDefault();
    });
  }

  // Zoom and pan, as a scroll view does: fitted at first, zoomed about the pointer (or the
  // centre for keys), panned by dragging, never left off the stage.
  function zoomer(stage, photo) {
    var scale = 1, x = 0, y = 0, fitted = true, width = 0, height = 0;
    var pointers = new Map(), pinch = 0;

    function fitScale() { return Math.min(stage.clientWidth / width, stage.clientHeight / height, 1); }
    function bounds() { var fit = fitScale(); return [fit, Math.max(8, fit * 4)]; }
    function apply() {
      var w = width * scale, h = height * scale, W = stage.clientWidth, H = stage.clientHeight;
      x = w <= W ? (W - w) / 2 : Math.min(0, Math.max(W - w, x));
      y = h <= H ? (H - h) / 2 : Math.min(0, Math.max(H - h, y));
      photo.style.transform = 'translate(' + x + 'px, ' + y + 'px) scale(' + scale + ')';
      body.dataset.zoom = scale.toFixed(4);
      body.dataset.fitted = fitted ? 'yes' : 'no';
    }
    function zoomAt(wanted, cx, cy) {
      if (!width) { return; }
      var range = bounds(), next = Math.max(range[0], Math.min(range[1], wanted));
      x = cx - (cx - x) * next / scale;
      y = cy - (cy - y) * next / scale;
      scale = next;
      fitted = Math.abs(scale - fitScale()) < 1e-6;
      apply();
    }
    function fit() { if (width) { scale = fitScale(); fitted = true; apply(); } }
    function centre() { return [stage.clientWidth / 2, stage.clientHeight / 2]; }
    function local(event) { var box = stage.getBoundingClientRect(); return [event.clientX - box.left, event.clientY - box.top]; }
    function spread() {
      var points = Array.from(pointers.values());
      return { distance: Math.hypot(points[0][0] - points[1][0], points[0][1] - points[1][1]),
               middle: [(points[0][0] + points[1][0]) / 2, (points[0][1] + points[1][1]) / 2] };
    }
    function start() {
      if (width || !photo.naturalWidth) { return; }
      width = photo.naturalWidth;
      height = photo.naturalHeight;
      photo.style.width = width + 'px';
      photo.style.height = height + 'px';
      stage.classList.add('zooming');
      fit();
    }

    if (photo.complete && photo.naturalWidth) { start(); } else { photo.addEventListener('load', start); }
    window.addEventListener('resize', function () { if (fitted) { fit(); } else if (width) { apply(); } });
    stage.addEventListener('wheel', function (event) {
      if (!width) { return; }
      event.preventDefault();
      var point = local(event), step = event.deltaMode === 1 ? 0.05 : 0.002;
      zoomAt(scale * Math.exp(-event.deltaY * step), point[0], point[1]);
    }, { passive: false });
    stage.addEventListener('dblclick', function (event) {
      var point = local(event);
      if (fitted) { zoomAt(Math.max(1, fitScale() * 2), point[0], point[1]); } else { fit(); }
    });
    stage.addEventListener('pointerdown', function (event) {
      if (!width || event.button > 0) { return; }
      stage.setPointerCapture(event.pointerId);
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pointers.size === 2) { pinch = spread().distance; }
      stage.classList.add('dragging');
    });
    stage.addEventListener('pointermove', function (event) {
      var last = pointers.get(event.pointerId);
      if (!last) { return; }
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pointers.size === 1) {
        x += event.clientX - last[0];
        y += event.clientY - last[1];
        apply();
      } else if (pointers.size === 2 && pinch > 0) {
        var now = spread(), box = stage.getBoundingClientRect();
        zoomAt(scale * now.distance / pinch, now.middle[0] - box.left, now.middle[1] - box.top);
        pinch = now.distance;
      }
    });
    function release(event) {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) { pinch = 0; }
      if (!pointers.size) { stage.classList.remove('dragging'); }
    }
    stage.addEventListener('pointerup', release);
    stage.addEventListener('pointercancel', release);

    return {
      by: function (factor) { var c = centre(); zoomAt(scale * factor, c[0], c[1]); },
      actual: function () { var c = centre(); zoomAt(1, c[0], c[1]); },
      fit: fit
    };
  }

  // The paging strip: every image small, the current one centred.
  function strip(data) {
    var nav = document.getElementById('strip');
    if (!nav || !data || !data.images) { return; }
    var here = Number(body.dataset.index) - 1, current = null, items = document.createDocumentFragment();
    data.images.forEach(function (item, index) {
      var link = document.createElement('a');
      link.className = 'strip-item';
      link.href = item.page;
      link.title = item.alt;
      var image = document.createElement('img');
      image.loading = Math.abs(index - here) <= 12 ? 'eager' : 'lazy';
      image.decoding = 'async';
      image.alt = item.alt;
      image.width = item.thumbWidth;
      image.height = item.thumbHeight;
      image.src = '../' + item.thumb;
      link.appendChild(image);
      if (index === here) { link.setAttribute('aria-current', 'page'); current = link; }
      items.appendChild(link);
    });
    nav.appendChild(items);
    if (current) { current.scrollIntoView({ block: 'nearest', inline: 'center', behavior: 'instant' }); }
  }

  function imagePage() {
    var data = window.IMAGEGALLERY;
    var stage = document.getElementById('stage'), photo = document.getElementById('photo');
    var previous = document.querySelector('a.nav.prev'), next = document.querySelector('a.nav.next');
    strip(data);
    var view = stage && photo ? zoomer(stage, photo) : null;
    function open(href) { if (href) { location.href = href; } }
    function other(href) { return href && href !== body.dataset.page ? href : null; }
    document.addEventListener('keydown', function (event) {
      if (modified(event)) { return; }
      switch (event.key) {
        case 'ArrowLeft': open(previous && previous.getAttribute('href')); break;
        case 'ArrowRight': open(next && next.getAttribute('href')); break;
        case 'Home': open(other(body.dataset.first)); break;
        case 'End': open(other(body.dataset.last)); break;
        case 'Escape': open(body.dataset.grid); break;
        case '+': case '=': if (view) { view.by(1.25); } break;
        case '-': case '_': if (view) { view.by(0.8); } break;
        case '0': if (view) { view.fit(); } break;
        case '1': if (view) { view.actual(); } break;
        default: return;
      }
      event.preventDefault();
    });
    var buttons = { 'zoom-in': function () { view.by(1.25); }, 'zoom-out': function () { view.by(0.8); },
                    'zoom-fit': function () { view.fit(); } };
    Object.keys(buttons).forEach(function (name) {
      var button = document.querySelector('button.' + name);
      if (button && view) { button.addEventListener('click', buttons[name]); }
    });
    // The next image is likely wanted next.
    var index = Number(body.dataset.index);
    if (data && data.images && index < data.images.length) { new Image().src = '../' + data.images[index].image; }
  }

  // The slideshow's script and the list of every picture it chooses from are fetched on the first
  // Play or slide link (#/slide/N): an index that is only looked at costs none of their bytes. A
  // script element, since a file:// page may not fetch.
  function slideshowOnDemand() {
    var play = document.getElementById('play');
    if (!play) { return; }
    var asked = false, then = null;
    function load(done) {
      then = done || then;
      if (asked) { return; }
      asked = true;
      var scripts = ['assets/gallery-data.js', 'assets/slideshow.js'];
      (function next() {
        var script = document.createElement('script');
        script.src = scripts.shift();
        script.onload = scripts.length ? next : function () { if (then) { then(); } };
        body.appendChild(script);
      }());
    }
    function wantsSlide() { return /^#\/slide\/\d+$/.test(location.hash); }
    play.hidden = false;
    play.addEventListener('click', function first(event) {
      play.removeEventListener('click', first);
      event.stopImmediatePropagation();
      // The slideshow starts from the tile that had the focus, as it does once loaded.
      var focused = document.activeElement;
      load(function () { if (focused && focused.focus) { focused.focus(); } play.click(); });
    });
    if (wantsSlide()) { load(); }
    window.addEventListener('hashchange', function () { if (wantsSlide()) { load(); } });
  }

  if (body.classList.contains('grid-page')) { grid(); slideshowOnDemand(); }
  if (body.classList.contains('image-page')) { imagePage(); }
}());