# stash: `make demo` and `make test` are the two commands README.md promises.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
export LC_ALL ?= C.UTF-8
PREFIX ?= /usr/local
SWIFT ?= swift

# Release builds link the Swift runtime in, so the programs need only Debian's own libraries, are
# linked with full RELRO as Debian hardens its own, and carry the checkout's version
# (scripts/stamp-version). demo, install, bench and deb share the one build: other flags would
# compile everything again. `release` builds the two programs, not stash-bench, which links
# Foundation and so draws the linker's mktemp warning (bench builds it).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -DSTASH_STAMPED_VERSION \
  -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now

# The build that `make check` and `make test` share: every import must be a declared dependency of
# its target, and (STASH_STRICT=1, read by Package.swift) a warning in the product fails the build.
# Both use the same settings, so the tests reuse the build.
CHECK_FLAGS := --explicit-target-dependency-import-check error
STRICT := STASH_STRICT=1

.PHONY: install-deps build release demo check test fixtures format bench install clean fuzz stress deb \
  package-test soak

install-deps:
	@scripts/install-deps

build: install-deps
	$(SWIFT) build

release: install-deps
	@scripts/stamp-version >/dev/null
	$(SWIFT) build $(RELEASE_FLAGS) --product stash
	$(SWIFT) build $(RELEASE_FLAGS) --product stash-tui

# Opens the browser on a scratch copy of the demo memos (and a Trash of its own), so nothing done in
# the demo touches the repo or your Trash; the copy is removed when the browser quits.
demo: release
	@scripts/demo "$$($(SWIFT) build -c release --show-bin-path)"

# What CI enforces beyond the tests: the tree is formatted, and the build above passes.
check: install-deps
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks Fuzz
	$(STRICT) $(SWIFT) build --build-tests $(CHECK_FLAGS)

test: check
	$(STRICT) $(SWIFT) test $(CHECK_FLAGS)

fixtures: install-deps
	SyntheticFixtures/make-fixtures

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks Fuzz

# The programs, stash(1) and stash-tui(1), the completions, and FORMAT.md with the lint rule pages
# in PREFIX/share/doc/stash; the Debian package lays out the same files (scripts/install-files).
install: release
	scripts/install-files "$$($(SWIFT) build -c release --show-bin-path)" "$(DESTDIR)" "$(PREFIX)"

# Builds stash_VERSION_ARCH.deb and stash-tui_VERSION_ARCH.deb into .build/deb/ (their paths are the
# last two lines) and runs lintian on them. The tools it needs are in packaging/build-deps.
deb: release
	@scripts/install-deps packaging/build-deps
	scripts/build-deb "$$($(SWIFT) build -c release --show-bin-path)"

# Installs the packages into a clean Debian 12 root (debootstrap, cached under .build/package-test/),
# runs them there with no Swift toolchain, removes them and checks nothing is left. Takes minutes,
# so it is not part of make test.
package-test: deb
	time scripts/package-test "$$($(SWIFT) build -c release --show-bin-path)"

# Builds in release mode and runs the harness (Benchmarks/): writes docs/BENCHMARKS.md and prints the
# table. QUICK=1 runs smaller corpora, fewer times; BENCH_LARGE=1 adds the 100,000-memo tier
# (about 3 GB of scratch disk and a few more minutes).
bench: release
	$(SWIFT) build $(RELEASE_FLAGS) --product stash-bench
	bin=$$($(SWIFT) build -c release --show-bin-path) && \
	  "$$bin/stash-bench" --bin "$$bin" --repo "$(CURDIR)" --out "$(CURDIR)/docs/BENCHMARKS.md" \
	    $(if $(BENCH_LARGE),--large) \
	    --command "make bench$(if $(QUICK), QUICK=1)$(if $(BENCH_LARGE), BENCH_LARGE=1)" $(if $(QUICK),--quick)

# Builds the libFuzzer targets (Fuzz/) with AddressSanitizer and runs each for FUZZ_SECONDS
# (default 600); FUZZ_TARGETS picks some (mp4 webvtt gpx title foldername search). Findings go to Fuzz/findings/.
fuzz: install-deps
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),600) Fuzz/run-fuzz.sh $(FUZZ_TARGETS)

# Drives the browser in tmux with random keys, clicks and resizes over copies of the demo, crash
# and lint folders while files change underneath, STRESS_MINUTES (default 10) per folder.
stress: install-deps
	Fuzz/tui-stress.sh $(or $(STRESS_MINUTES),10) $(STRESS_FOLDERS)

# The browser in tmux on PulseAudio and then PipeWire (each started with a null sink, ALSA's default
# routed to it), SOAK_MINUTES (default 30) per server of random seeks, pauses, cue jumps and memo
# changes: zero playback failures, memory flat. Prints one JSON line per server.
soak: release
	bin=$$($(SWIFT) build -c release --show-bin-path) && \
	  for server in pulseaudio pipewire; do \
	    python3 Benchmarks/real-server-playback.py --soak $(or $(SOAK_MINUTES),30) "$$bin/stash-tui" \
	      SyntheticFixtures/demo $$server "$(CURDIR)/.build/audio-plugins/pipewire-alsa" || exit 1; \
	  done

clean:
	rm -rf .build
