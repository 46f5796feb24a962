# imagegallery — the two commands of the quick start are `make demo` and `make test`.
SWIFT        ?= swift
RELEASE_FLAGS = -c release --static-swift-stdlib
DEMO_DIR     ?= .build-demo
BIN_DEBUG     = .build/debug/imagegallery
BIN_RELEASE   = .build/release/imagegallery
# The network side, run by imagegallery for URLs (see Sources/GalleryPrograms/FetchHelper.swift).
HELPER_DEBUG   = .build/debug/imagegallery-fetch
HELPER_RELEASE = .build/release/imagegallery-fetch
# The editor's server, run by `imagegallery edit` (see Sources/GalleryEditor).
EDITOR_DEBUG   = .build/debug/imagegallery-editor
EDITOR_RELEASE = .build/release/imagegallery-editor
# The confined thumbnailer that the thumbnailer entry runs (see Sources/imagegallery-thumbnailer).
THUMBNAILER_RELEASE = .build/release/imagegallery-thumbnailer

HOSTILE_DIR   ?= .build/hostile
# Seconds each fuzz target runs in `make fuzz` (the CI smoke runs 30).
FUZZ_SECONDS ?= 300
PREFIX       ?= /usr/local

.PHONY: deb test-package all build release test test-large test-sanitize hostile fuzz fuzz-smoke demo bench bench-editor fixtures install uninstall clean deps

all: build

deps:
	@scripts/install-deps test

build: deps
	$(SWIFT) build

release:
	@scripts/install-deps build
	$(SWIFT) build $(RELEASE_FLAGS)

# The checks that need no build first (they fail in seconds), then the builds, the tests, the
# quick hostile corpus (about 100 files written from the spec, apart from the fixtures: no
# crash, hang or memory breach, and nearly every verdict right) and the fuzz smoke. The tests
# run the programs named here, just built (a test that needs one fails when its variable is
# unset). Each step is timed (scripts/step), and the run ends with the table of where its
# minutes went; the log stays in $(STEP_LOG).
#
# The three builds run at once, each in a scratch folder of its own (SwiftPM locks its folder
# for a whole build): the debug build with the tests, the static release programs the tests
# run (STATIC_SCRATCH, apart from `make release`'s .build/release so that neither waits for or
# rebuilds the other) and the fuzz build. Alone, each left the cores idle for long serial
# stretches of its dependency graph (RESULTS.md x.4: the debug build kept them 63% busy).
STEP_LOG ?= .build/test-steps.tsv
STEP      = /usr/bin/python3 scripts/step --log $(STEP_LOG)
STATIC_SCRATCH ?= .build-static
STATIC_BIN      = $(STATIC_SCRATCH)/release
STATIC_BUILD    = $(SWIFT) build $(RELEASE_FLAGS) --scratch-path $(STATIC_SCRATCH)
test: deps
	@$(STEP) --start
	$(STEP) "doc comments" -- /usr/bin/python3 scripts/check-doc-comments Sources/GalleryFormat Sources/GalleryBuilder Sources/GalleryDocument Sources/GallerySystem Sources/GalleryImaging Sources/GalleryConvert Sources/GalleryFetch Sources/GalleryImageHeaders Sources/GalleryMetadata
	$(STEP) "Python functions: the check's self-test" -- /usr/bin/python3 scripts/check-python --self-test
	$(STEP) "Python functions at most 80 lines" -- /usr/bin/python3 scripts/check-python
	$(STEP) "front end parses" -- /usr/bin/python3 scripts/check-front-end
	$(STEP) "OS boundary" -- /usr/bin/python3 scripts/check-os-boundary
	$(STEP) "resolve the packages (both scratch folders)" -- sh -c '$(SWIFT) package resolve && $(SWIFT) package --scratch-path $(STATIC_SCRATCH) resolve'
	$(STEP) --together "debug build with the tests" -- $(SWIFT) build --build-tests \
	  --and "static release build: the three programs" -- sh -c '$(STATIC_BUILD) --product imagegallery && $(STATIC_BUILD) --product imagegallery-fetch && $(STATIC_BUILD) --product imagegallery-thumbnailer' \
	  --and "fuzz build" -- scripts/fuzz --build-only
	$(STEP) "swift test" -- env IMAGEGALLERY_BINARY=$(CURDIR)/$(BIN_DEBUG) IMAGEGALLERY_FETCH_BINARY=$(CURDIR)/$(HELPER_DEBUG) \
	  IMAGEGALLERY_EDITOR_BINARY=$(CURDIR)/$(EDITOR_DEBUG) \
	  IMAGEGALLERY_STATIC_BINARY=$(CURDIR)/$(STATIC_BIN)/imagegallery IMAGEGALLERY_STATIC_FETCH_BINARY=$(CURDIR)/$(STATIC_BIN)/imagegallery-fetch \
	  IMAGEGALLERY_THUMBNAILER_BINARY=$(CURDIR)/$(STATIC_BIN)/imagegallery-thumbnailer \
	  $(SWIFT) test --skip-build
	$(STEP) "quick hostile corpus: write" -- /usr/bin/python3 scripts/make-hostile-corpus.py $(HOSTILE_DIR) --quick
	$(STEP) "quick hostile corpus: check" -- /usr/bin/python3 scripts/check-hostile-corpus.py $(HOSTILE_DIR) --binary $(BIN_DEBUG)
	$(STEP) "fuzz smoke (run)" -- scripts/fuzz --seconds 30 --no-build
	@$(STEP) --summary

# The full hostile corpus (about 1,040 files) against the release build: verdicts, then every
# command that reads input under a 256 MiB address-space limit.
hostile: release
	/usr/bin/python3 scripts/make-hostile-corpus.py $(HOSTILE_DIR)-full
	/usr/bin/python3 scripts/check-hostile-corpus.py $(HOSTILE_DIR)-full --binary $(BIN_RELEASE)
	/usr/bin/python3 scripts/check-hostile-commands.py $(HOSTILE_DIR)-full --binary $(BIN_RELEASE)

# The Debian package, imagegallery_VERSION_amd64.deb in .build/deb, checked by lintian
# (scripts/make-deb says how it is made; README, "The Debian package").
deb:
	@scripts/install-deps package
	/usr/bin/python3 scripts/make-deb --lintian

# The package in a clean Debian 12 root (debootstrap, as root): installed over an older build,
# checked with the desktop's own tools from the installed files, then purged (scripts/test-package).
test-package: deb
	/usr/bin/python3 scripts/test-package

# Every fuzz target of Specs/security.md (libFuzzer + AddressSanitizer, built into .build-fuzz),
# FUZZ_SECONDS each, two at a time; the corpus grows in .build-fuzz/corpus between runs.
fuzz: deps
	scripts/fuzz --seconds $(FUZZ_SECONDS)

# The short run of every fuzz target that `make test` ends with.
fuzz-smoke: deps
	scripts/fuzz --seconds 30

# The tests under AddressSanitizer and UndefinedBehaviorSanitizer, built into .build-sanitize.
test-sanitize:
	scripts/test-sanitize

# Adds the tests too heavy for every run (a 4.3 GB archive for ZIP64 entry sizes).
test-large: deps
	$(SWIFT) build --build-tests
	IMAGEGALLERY_LARGE_TESTS=1 $(SWIFT) test --skip-build --filter LargeArchiveTests

# Creates, describes, lists, unpacks, validates and thumbnails a gallery of the bundled sample images,
# edits it, adds images by URL from a server on loopback, and converts it (unpacked, CBZ, tar, web).
# Only the two programs it runs are built (the tool and the fetch helper): the editor's server
# (Hummingbird and its dependencies) doubled the demo's time on a fresh machine and the demo never runs it.
demo: deps
	$(SWIFT) build --product imagegallery
	$(SWIFT) build --product imagegallery-fetch
	@mkdir -p $(DEMO_DIR)
	$(BIN_DEBUG) create $(DEMO_DIR)/samples.imagegallery --force --title "Sample gallery" Fixtures/images
	$(BIN_DEBUG) info $(DEMO_DIR)/samples.imagegallery
	$(BIN_DEBUG) list $(DEMO_DIR)/samples.imagegallery
	$(BIN_DEBUG) extract $(DEMO_DIR)/samples.imagegallery --force --to $(DEMO_DIR)/extracted
	$(BIN_DEBUG) validate --deep $(DEMO_DIR)/samples.imagegallery
	$(BIN_DEBUG) thumbnail -s 256 $(DEMO_DIR)/samples.imagegallery $(DEMO_DIR)/thumbnail.png
	XDG_STATE_HOME=$(DEMO_DIR)/state $(BIN_DEBUG) caption $(DEMO_DIR)/samples.imagegallery 1 "Sunset over the bay"
	XDG_STATE_HOME=$(DEMO_DIR)/state $(BIN_DEBUG) move $(DEMO_DIR)/samples.imagegallery 10-fractal.jpg --to 1
	$(BIN_DEBUG) textconv $(DEMO_DIR)/samples.imagegallery
	scripts/demo-fetch.sh $(BIN_DEBUG) $(DEMO_DIR)/samples.imagegallery $(DEMO_DIR)
	scripts/demo-convert.sh $(BIN_DEBUG) $(DEMO_DIR)/samples.imagegallery $(DEMO_DIR)
	@echo "demo: gallery at $(DEMO_DIR)/samples.imagegallery, images extracted to $(DEMO_DIR)/extracted, thumbnail $(DEMO_DIR)/thumbnail.png, web gallery $(DEMO_DIR)/web/index.html"
	@echo "demo: to edit the gallery in the browser, build the editor, then start it:"
	@echo "demo:   $(SWIFT) build --product imagegallery-editor && $(BIN_DEBUG) edit $(DEMO_DIR)"

# The DocC documentation of the library modules, one catalogue each (Sources/<Module>/<Module>.docc),
# into .build/docs/<Module> for static hosting. Warnings are errors: a broken symbol link fails.
# Every library module with a catalogue (the articles' code is compiled and checked by
# LibraryExampleTests); a link to another module's symbol is code voice, not a link. SWIFTPM_FLAGS passes options such as another --scratch-path.
.PHONY: docs
docs: deps
	@mkdir -p .build/docs
	@for target in GalleryImageHeaders GalleryFormat GalleryImaging GalleryBuilder GalleryDocument GalleryFetch GalleryConvert; do \
	  echo "docs: $$target"; \
	  $(SWIFT) package $(SWIFTPM_FLAGS) --allow-writing-to-directory .build/docs generate-documentation \
	    --target $$target --output-path .build/docs/$$target \
	    --transform-for-static-hosting --disable-indexing --warnings-as-errors || exit 1; \
	done

# Release build (static Swift runtime), benchmark corpus, side-by-side timings → Benchmarks/RESULTS.md.
bench: release
	@scripts/install-deps bench
	Benchmarks/make-corpus.sh .build-bench/corpus
	IG=$(BIN_RELEASE) CORPUS=.build-bench/corpus Benchmarks/run.sh

# The gallery editor's figures (issue 17): first paint in headless Chromium, edits saved by autosave,
# the save of a 1 GiB gallery (also on an XFS loop image, as root), peak RSS. Raw results in
# .build-bench/results/editor.json; the RESULTS.md section in .build-bench/results/editor.md.
# ONLY=scale (or any list of editor.py --only) runs only those parts: scale is the 100,000-image
# gallery of issue 34, not in the default set.
bench-editor: release
	@scripts/install-deps bench
	Benchmarks/make-corpus.sh .build-bench/corpus
	/usr/bin/python3 Benchmarks/editor.py --bin .build/release --markdown .build-bench/results/editor.md $(if $(ONLY),--only $(ONLY))

# Regenerates Fixtures/ (deterministic; the result is committed).
fixtures:
	@scripts/install-deps bench
	/usr/bin/python3 scripts/make-fixtures.py

# Installs the static binary under PREFIX (GNOME's thumbnail sandbox sees only /usr) and the
# desktop integration for every user: MIME type, thumbnailer, .desktop entry, `file` rule.
install: release
	install -D -m 0755 $(BIN_RELEASE) $(DESTDIR)$(PREFIX)/bin/imagegallery
	install -D -m 0755 $(THUMBNAILER_RELEASE) $(DESTDIR)$(PREFIX)/bin/imagegallery-thumbnailer
	install -D -m 0755 $(HELPER_RELEASE) $(DESTDIR)$(PREFIX)/libexec/imagegallery/imagegallery-fetch
	install -D -m 0755 $(EDITOR_RELEASE) $(DESTDIR)$(PREFIX)/libexec/imagegallery/imagegallery-editor
	$(DESTDIR)$(PREFIX)/bin/imagegallery integrate install --system --prefix $(PREFIX)

uninstall:
	-$(PREFIX)/bin/imagegallery integrate uninstall --system --prefix $(PREFIX)
	rm -f $(DESTDIR)$(PREFIX)/bin/imagegallery $(DESTDIR)$(PREFIX)/bin/imagegallery-thumbnailer $(DESTDIR)$(PREFIX)/libexec/imagegallery/imagegallery-fetch \
	  $(DESTDIR)$(PREFIX)/libexec/imagegallery/imagegallery-editor
	-rmdir $(DESTDIR)$(PREFIX)/libexec/imagegallery

clean:
	rm -rf .build .build-static .build-fuzz .build-sanitize $(DEMO_DIR)
