SWIFT ?= swift

CMARK_PC := libcmark-gfm
APT_PACKAGES := libcmark-gfm-dev libcmark-gfm-extensions-dev pkg-config

# True when pkg-config finds cmark-gfm and the core-extensions header and library sit beside it.
define cmark_present
( command -v pkg-config >/dev/null 2>&1 \
&& pkg-config --exists $(CMARK_PC) \
&& test -f "$$(pkg-config --variable=includedir $(CMARK_PC))/cmark-gfm-core-extensions.h" \
&& ls "$$(pkg-config --variable=libdir $(CMARK_PC))"/libcmark-gfm-extensions.* >/dev/null 2>&1 )
endef

.PHONY: all deps browser-deps axe-core screenshots shell-deps bench-deps build release test site examples bench fuzz fuzz-smoke clean

all: build

deps:
	@if $(cmark_present); then exit 0; fi; \
	case "$$(uname -s)" in \
	Linux) \
		if ! command -v apt-get >/dev/null 2>&1; then \
			echo "deps: cmark-gfm not found and apt-get is missing; install cmark-gfm (with its extensions) and pkg-config by hand" >&2; \
			exit 1; \
		fi; \
		sudo=; \
		if [ "$$(id -u)" -ne 0 ]; then \
			if command -v sudo >/dev/null 2>&1; then sudo=sudo; else \
				echo "deps: not root and no sudo; run as root: apt-get install -y $(APT_PACKAGES)" >&2; \
				exit 1; \
			fi; \
		fi; \
		echo "deps: installing $(APT_PACKAGES)"; \
		$$sudo apt-get update -qq \
		&& $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) >/dev/null \
		|| exit 1 ;; \
	Darwin) \
		echo "deps: cmark-gfm not found; run: brew install cmark-gfm pkg-config" >&2; \
		exit 1 ;; \
	*) \
		echo "deps: cmark-gfm not found; install cmark-gfm (with its extensions) and pkg-config" >&2; \
		exit 1 ;; \
	esac; \
	if ! $(cmark_present); then \
		echo "deps: installed, but pkg-config still does not find $(CMARK_PC) with cmark-gfm-core-extensions.h" >&2; \
		exit 1; \
	fi

# Installs the Debian packages $(2) with apt-get (through sudo when not root) for target $(1),
# or, with no apt-get, says what to install ($(3)) and fails.
define apt_install
if ! command -v apt-get >/dev/null 2>&1; then echo "$(1): $(3)" >&2; exit 1; fi; \
sudo=; if [ "$$(id -u)" -ne 0 ]; then sudo=sudo; fi; \
echo "$(1): installing $(2)"; \
$$sudo apt-get update -qq \
&& $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null
endef

# Headless Chromium and Node for the site's browser tests, and axe-core for their accessibility
# gate (each skipped when it is missing, except with CI=true, where a missing one fails the run).
browser-deps: axe-core
	@if command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then exit 0; fi; \
	$(call apt_install,browser-deps,chromium nodejs,install Chromium and Node.js to run the browser tests)

# axe-core's axe.min.js in .build/axe-core/ (where Site/test/run.sh looks, unless AXE_JS says
# otherwise), from a pinned PyPI wheel fetched with pip and checked by SHA-256:
# Site/test/install-axe-core.py holds the pins. Installs python3 and pip when they are missing.
AXE_DIR ?= .build/axe-core

axe-core:
	@if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then \
		$(call apt_install,axe-core,python3 python3-pip,install Python 3 with pip to fetch axe-core for the accessibility tests) \
		|| exit 1; \
	fi; \
	python3 Site/test/install-axe-core.py "$(AXE_DIR)"

# Screenshots of one page of every kind of the Examples series (desktop 1280 px and phone 390 px,
# light and dark) into OUT, with an index.html listing them: `make screenshots OUT=folder`.
# Needs Chromium and Node (make browser-deps); the site is built in a temporary folder.
screenshots: deps
	@if [ -z "$(OUT)" ]; then echo "usage: make screenshots OUT=folder" >&2; exit 2; fi
	@$(SWIFT) build -q --product fallback-site
	@tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/fallback-site-screenshots.XXXXXX") || exit 1; \
	trap 'rm -rf "$$tmp"' EXIT; \
	"$$($(SWIFT) build --show-bin-path)/fallback-site" build Examples --out "$$tmp/site" --quiet \
	&& node Site/test/screenshots.js "$$tmp/site" "$(OUT)"

# zsh and fish, whose completion scripts the tests load (bash always runs; with CI=true a missing
# shell's tests count as skipped, which fails the run).
shell-deps:
	@if command -v zsh >/dev/null 2>&1 && command -v fish >/dev/null 2>&1; then exit 0; fi; \
	$(call apt_install,shell-deps,zsh fish,install zsh and fish to test their completion scripts)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

test: deps
	$(SWIFT) test

# SITE_OUT: where `make examples` builds the site (CI passes a temporary folder).
SITE_OUT ?= _site

# Quiet builds (-q: errors only), so the Examples' findings fit on one screen; the first build
# takes a few minutes. Tests/FallbackCLITests/MakeExamplesOutputTests.swift runs these lines.
examples: deps
	@echo "make examples: building fallback-site (the first build takes a few minutes)"
	@$(SWIFT) build -q --product fallback-site
	$(SWIFT) run -q fallback-site check --fail-on never Examples/*.json
	$(SWIFT) run -q fallback-site build Examples --out "$(SITE_OUT)" --force

# Hugo, the static site generator `make bench` compares the site build with (Debian's hugo).
bench-deps:
	@if command -v hugo >/dev/null 2>&1; then exit 0; fi; \
	$(call apt_install,bench-deps,hugo,install Hugo (https://gohugo.io/installation/) for the benchmark's comparison with it)

# BENCH_ARGS: options for fallback-bench (see README's Benchmark section), e.g. BENCH_ARGS='--git --large'.
bench: deps bench-deps
	$(SWIFT) build -c release --product fallback-site
	$(SWIFT) run -c release fallback-bench $(BENCH_ARGS)

# Fuzzing (libFuzzer + AddressSanitizer, Linux with the swift.org toolchain; see docs/fuzzing.md).
# `make fuzz` runs each target for FUZZ_SECONDS (default 60); FUZZ_TARGETS picks targets
# (json mustache markdown build). `make fuzz-smoke` (CI) replays Fuzz/Regressions and runs each a few seconds.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= json mustache markdown build

fuzz: deps
	SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" bash Fuzz/fuzz.sh run

fuzz-smoke: deps
	SWIFT="$(SWIFT)" FUZZ_SECONDS=5 FUZZ_TARGETS="$(FUZZ_TARGETS)" bash Fuzz/fuzz.sh smoke

clean:
	rm -rf .build _site
