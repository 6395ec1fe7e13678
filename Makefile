# stash: `make demo` and `make test` are the two commands README.md promises.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
export LC_ALL ?= C.UTF-8
PREFIX ?= /usr/local
SWIFT ?= swift

# The build that `make check` and `make test` share: every import must be a declared dependency of
# its target, and (STASH_STRICT=1, read by Package.swift) a warning in the product fails the build.
# Both use the same settings, so the tests reuse the build.
CHECK_FLAGS := --explicit-target-dependency-import-check error
STRICT := STASH_STRICT=1

.PHONY: install-deps build release demo check test fixtures format bench install clean fuzz stress

install-deps:
	@scripts/install-deps

build: install-deps
	$(SWIFT) build

release: install-deps
	$(SWIFT) build -c release

# Opens the browser on a scratch copy of the demo memos, so nothing done in the demo touches the repo.
demo: release
	@scratch=$$(mktemp -d /tmp/stash-demo.XXXXXX) && cp -R SyntheticFixtures/demo "$$scratch/memos" && rm -f "$$scratch/memos/MANIFEST.json" && \
	  echo "Demo memos copied to $$scratch/memos" && \
	  bin=$$($(SWIFT) build -c release --show-bin-path) && \
	  if "$$bin/stash-tui" --help >/dev/null 2>&1; then "$$bin/stash-tui" "$$scratch/memos"; \
	  else echo "(the terminal browser is not built yet; here is 'stash ls' of the copy instead)"; \
	    "$$bin/stash" ls "$$scratch/memos"; fi

# What CI enforces beyond the tests: the tree is formatted, and the build above passes.
check: install-deps
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks
	$(STRICT) $(SWIFT) build --build-tests $(CHECK_FLAGS)

test: check
	$(STRICT) $(SWIFT) test $(CHECK_FLAGS)

fixtures: install-deps
	SyntheticFixtures/make-fixtures

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks

install: release
	bin=$$($(SWIFT) build -c release --show-bin-path) && \
	  install -d "$(DESTDIR)$(PREFIX)/bin" && \
	  install -m 755 "$$bin/stash" "$$bin/stash-tui" "$(DESTDIR)$(PREFIX)/bin/" && \
	  install -d "$(DESTDIR)$(PREFIX)/share/man/man1" && \
	  install -m 644 docs/stash.1 "$(DESTDIR)$(PREFIX)/share/man/man1/stash.1" && \
	  install -d "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	    "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d" && \
	  "$$bin/stash" completions bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/stash" && \
	  "$$bin/stash" completions zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_stash" && \
	  "$$bin/stash" completions fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/stash.fish"

# Builds in release mode and runs the harness (Benchmarks/): writes docs/BENCHMARKS.md and prints the
# table. QUICK=1 runs smaller corpora, fewer times; BENCH_LARGE=1 adds the 100,000-memo tier
# (about 3 GB of scratch disk and a few more minutes).
bench: release
	bin=$$($(SWIFT) build -c release --show-bin-path) && \
	  "$$bin/stash-bench" --bin "$$bin" --repo "$(CURDIR)" --out "$(CURDIR)/docs/BENCHMARKS.md" \
	    $(if $(BENCH_LARGE),--large) \
	    --command "make bench$(if $(QUICK), QUICK=1)$(if $(BENCH_LARGE), BENCH_LARGE=1)" $(if $(QUICK),--quick)

# Builds the libFuzzer targets (Fuzz/) with AddressSanitizer and runs each for FUZZ_SECONDS
# (default 600); FUZZ_TARGETS picks some (mp4 webvtt gpx title foldername). Findings go to Fuzz/findings/.
fuzz: install-deps
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),600) Fuzz/run-fuzz.sh $(FUZZ_TARGETS)

# Drives the browser in tmux with random keys, clicks and resizes over copies of the demo, crash
# and lint folders while files change underneath, STRESS_MINUTES (default 10) per folder.
stress: install-deps
	Fuzz/tui-stress.sh $(or $(STRESS_MINUTES),10) $(STRESS_FOLDERS)

clean:
	rm -rf .build
