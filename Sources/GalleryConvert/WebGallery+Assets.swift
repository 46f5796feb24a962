/// The style sheet and the script every web gallery carries, written as local files (no CDN,
/// no module loading, nothing `file://` forbids). Plain ASCII, so their encoding never matters.
enum WebGalleryAssets {
    /// The grid is a justified flow of fixed-height rows, as the seed's collection view laid out
    /// thumbnails; an image page is a stage (the seed's scroll view) above the caption and the
    /// paging strip.
    static let stylesheet = #"""
        :root {
          color-scheme: dark;
          --bg: #121212; --panel: #1d1d1d; --fg: #ececec; --muted: #a0a0a0; --accent: #5aa9ff;
          font-family: "DejaVu Sans", system-ui, sans-serif;
        }
        * { box-sizing: border-box; }
        html, body { margin: 0; background: var(--bg); color: var(--fg); }
        a { color: var(--accent); }
        h1 { margin: 0; font-size: 1.4rem; font-weight: 600; overflow-wrap: anywhere; }

        /* The grid */
        .top { padding: 16px 20px 0; }
        .meta { margin: 4px 0 0; color: var(--muted); }
        .empty { padding: 0 20px; color: var(--muted); }
        .grid { list-style: none; margin: 0; padding: 12px 16px; display: flex; flex-wrap: wrap; gap: 8px; }
        .grid::after { content: ""; flex-grow: 999; }
        .grid li { height: 180px; flex: 1 1 auto; }
        .tile { display: block; position: relative; height: 100%; border-radius: 4px; overflow: hidden;
                background: var(--panel); outline: none; }
        .tile img { display: block; height: 100%; width: auto; min-width: 100%; object-fit: cover; }
        .tile:focus-visible, .tile:focus, .tile:target { box-shadow: 0 0 0 3px var(--accent); }
        .tile-caption { position: absolute; left: 0; right: 0; bottom: 0; padding: 16px 8px 6px; font-size: .8rem;
                        color: #fff; background: linear-gradient(transparent, rgba(0, 0, 0, .75)); white-space: nowrap;
                        overflow: hidden; text-overflow: ellipsis; opacity: 0; transition: opacity .15s; }
        .tile:hover .tile-caption, .tile:focus .tile-caption { opacity: 1; }
        .help { padding: 8px 20px 16px; color: var(--muted); font-size: .8rem; }

        /* An image */
        .image-page { height: 100vh; height: 100dvh; display: flex; flex-direction: column; overflow: hidden; }
        .bar { display: flex; align-items: center; gap: 12px; padding: 8px 12px; background: var(--panel); }
        .back { flex: 1 1 auto; min-width: 0; color: var(--fg); text-decoration: none; white-space: nowrap;
                overflow: hidden; text-overflow: ellipsis; }
        .back:hover, .back:focus-visible { color: var(--accent); }
        .counter { color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
        .tools { display: flex; gap: 4px; }
        .tools button { min-width: 36px; height: 30px; color: var(--fg); background: #2c2c2c; border: 1px solid #3a3a3a;
                        border-radius: 4px; font: inherit; cursor: pointer; }
        .tools button:hover { background: #383838; }
        .viewer { position: relative; flex: 1 1 auto; min-height: 0; }
        .stage { position: absolute; inset: 0; overflow: hidden; display: flex; align-items: center;
                 justify-content: center; touch-action: none; }
        .photo { display: block; max-width: 100%; max-height: 100%; width: auto; height: auto; object-fit: contain; }
        .stage.zooming { display: block; cursor: grab; }
        .stage.zooming .photo { position: absolute; left: 0; top: 0; max-width: none; max-height: none;
                                transform-origin: 0 0; user-select: none; -webkit-user-drag: none; }
        .stage.dragging { cursor: grabbing; }
        .nav { position: absolute; top: 50%; transform: translateY(-50%); width: 52px; height: 96px; display: flex;
               align-items: center; justify-content: center; font-size: 48px; line-height: 1; color: #fff;
               background: rgba(0, 0, 0, .45); border-radius: 6px; text-decoration: none; opacity: .55; }
        .nav:hover, .nav:focus-visible { opacity: 1; }
        .nav.prev { left: 8px; }
        .nav.next { right: 8px; }
        .nav.none { display: none; }
        .info { padding: 6px 16px; text-align: center; }
        .caption { margin: 0; max-height: 4.5em; overflow: auto; overflow-wrap: anywhere; }
        .details { margin: 2px 0 0; color: var(--muted); font-size: .8rem; overflow-wrap: anywhere; }

        /* The paging strip: the current image centred, the neighbours on either side, snapping to centre */
        .strip { flex: 0 0 auto; display: flex; gap: 6px; padding: 8px 0; overflow-x: auto; overflow-y: hidden;
                 scroll-snap-type: x mandatory; background: #000; scrollbar-width: thin; }
        .strip::before, .strip::after { content: ""; flex: 0 0 calc(50% - 48px); }
        .strip-item { flex: 0 0 auto; height: 68px; border: 2px solid transparent; border-radius: 4px;
                      scroll-snap-align: center; opacity: .6; }
        .strip-item:hover, .strip-item:focus-visible { opacity: 1; }
        .strip-item[aria-current="page"] { border-color: var(--accent); opacity: 1; }
        .strip-item img { display: block; height: 100%; width: auto; border-radius: 2px; }
        """#

    /// Keys, zoom and pan, and the strip. A page works without it (links and a fitted image);
    /// the state it keeps is mirrored in `data-` attributes of `<body>` for tests to read.
    static let script = #"""
        (function () {
          'use strict';
          var body = document.body;
          if (!body) { return; }

          function modified(event) { return event.ctrlKey || event.metaKey || event.altKey; }

          // The grid: arrows move between tiles by position on screen, Enter opens (a link).
          function grid() {
            var tiles = Array.prototype.slice.call(document.querySelectorAll('.grid .tile'));
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
            if (target && target.classList.contains('tile')) { go(tiles.indexOf(target)); }
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

          if (body.classList.contains('grid-page')) { grid(); }
          if (body.classList.contains('image-page')) { imagePage(); }
        }());
        """#
}
