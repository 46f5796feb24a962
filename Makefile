# imagegallery — the two commands of the quick start are `make demo` and `make test`.
SWIFT        ?= swift
RELEASE_FLAGS = -c release --static-swift-stdlib
DEMO_DIR     ?= .build-demo
BIN_DEBUG     = .build/debug/imagegallery
BIN_RELEASE   = .build/release/imagegallery

.PHONY: all build release test test-large demo bench fixtures clean deps

all: build

deps:
	@scripts/install-deps test

build: deps
	$(SWIFT) build

release:
	@scripts/install-deps build
	$(SWIFT) build $(RELEASE_FLAGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Adds the tests too heavy for every run (a 4.3 GB archive for ZIP64 entry sizes).
test-large: deps
	$(SWIFT) build --build-tests
	IMAGEGALLERY_LARGE_TESTS=1 $(SWIFT) test --skip-build --filter LargeArchiveTests

# Creates, lists and describes a gallery made from the bundled sample images.
demo: build
	@mkdir -p $(DEMO_DIR)
	$(BIN_DEBUG) create $(DEMO_DIR)/samples.imagegallery --force --title "Sample gallery" Fixtures/images
	$(BIN_DEBUG) info $(DEMO_DIR)/samples.imagegallery
	$(BIN_DEBUG) list $(DEMO_DIR)/samples.imagegallery
	$(BIN_DEBUG) extract $(DEMO_DIR)/samples.imagegallery --force --to $(DEMO_DIR)/extracted
	@echo "demo: gallery at $(DEMO_DIR)/samples.imagegallery, images extracted to $(DEMO_DIR)/extracted"

# Release build (static Swift runtime), benchmark corpus, side-by-side timings → Benchmarks/RESULTS.md.
bench: release
	@scripts/install-deps bench
	Benchmarks/make-corpus.sh .build-bench/corpus
	IG=$(BIN_RELEASE) CORPUS=.build-bench/corpus Benchmarks/run.sh

# Regenerates Fixtures/ (deterministic; the result is committed).
fixtures:
	@scripts/install-deps bench
	/usr/bin/python3 scripts/make-fixtures.py

clean:
	rm -rf .build $(DEMO_DIR)
