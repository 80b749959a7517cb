# bachess — build, test and measure.
#
#   make            optimised engine (./bachess), native CPU features when available
#   make run        build and start the engine
#   make test       install test dependencies (Debian), then run every test
#   make debug      engine with assertions and debug info (./bachess-debug): the board
#                   is checked after every make/unmake, every searched move for legality
#   make console-tests  console play driven in a pseudo-terminal
#   make memory-tests   Hash as resident memory; no leaks in whole games (valgrind, LeakSanitizer)
#   make conformance-uci  the UCI protocol scenarios (tests/conformance/uci_test.py)
#   make polyglot-match   two games under XBoard, bachess behind polyglot, vs fairymax
#   make conformance-cecp the XBoard protocol scenarios (tests/conformance/cecp_test.py)
#   make xboard-match     two games under XBoard, bachess speaking CECP, vs fairymax; analysis mode; two Chess960 games
#   make book-interop  opening books and PGN against polyglot and pgn-extract
#   make annotate-test  bachess annotate end to end: marks, lines, evaluations, pgn-extract, SIGINT
#   make perft-full the whole perft suite at its full depths
#   make bench-perft  perft speed side by side with Stockfish (a benchmark: prints the ratio)
#   make bench-annotate  bachess annotate timed, and its ?? marks against Stockfish's (a benchmark:
#                   prints; ANNOTATE_ARGS="--nodes 1000000", JUDGE_NODES=N, ANNOTATE_GAMES=FILE)
#   make script-tests  the measuring scripts (pgn-score.py, annotate-judge.py's kept verdicts), no engine run
#   make web-tests  bachess web: the server under bad and heavy use; the page in headless chromium
#   make lab        the game-tree lab: refresh the tables and plot in docs/results/lab.md (gnuplot)
#   make fuzz       every libFuzzer target (fuzz/) for FUZZ_SECONDS each (default 60)
#   make flake-hunt ROUNDS=N  the suites that can race, N times each beside stress-ng (docs/flakes.md)
#   make install    the engine, its man page and XBoard's engine file under PREFIX
#                   (default /usr/local; DESTDIR honoured); make uninstall removes them
#   make build-tests  the ARCH builds, the CPU check, EVALFILE and the bench's last line
#   make package-test the Debian package: built, lintian, installed, both protocols, XBoard
#
# Honours CC, EXE, CFLAGS, CPPFLAGS and LDFLAGS, e.g. `make CC=clang EXE=bachess-clang`, and
#   ARCH=x86-64 | x86-64-v2 | x86-64-v3 | native   the CPU to build for (default native;
#                   the binary refuses to start on a CPU without what it was built for)
#   EVALFILE=FILE   the NNUE network built in (default nets/default.nnue)

CC      ?= cc
EXE     ?= bachess
BUILD   ?= build
FUZZ_SECONDS ?= 60

# The version: the first entry of debian/changelog, the one place it is kept.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null)
VERSION := $(or $(VERSION),unknown)

# The CPU to build for. An ARCH from the environment that is not one of
# these (some shells export ARCH=amd64 or the like) is ignored.
ARCH_LIST := x86-64 x86-64-v2 x86-64-v3 native
ifeq ($(origin ARCH),command line)
  ifeq ($(filter $(ARCH),$(ARCH_LIST)),)
    $(error ARCH must be one of $(ARCH_LIST), not '$(ARCH)')
  endif
else ifeq ($(filter $(ARCH),$(ARCH_LIST)),)
  override ARCH := native
endif
NATIVE  := $(shell $(CC) -march=native -E -x c /dev/null >/dev/null 2>&1 && echo -march=native)
BASELINE := $(shell $(CC) -march=x86-64 -E -x c /dev/null >/dev/null 2>&1 && echo -march=x86-64 -mtune=generic)
ARCH_FLAGS := $(if $(filter native,$(ARCH)),$(NATIVE),-march=$(ARCH) -mtune=generic)

# TUNE=1 makes the optimised build a tuning build (as `make tuning`: the
# search parameters of src/search_params.h as UCI options), for OpenBench's
# SPSA, which builds with a plain `make EXE=…`: a branch to tune sets it here.
TUNE ?=
TUNE_FLAGS := $(if $(filter 1,$(TUNE)),-DSEARCH_TUNING)

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_COMMON := -std=gnu11 $(WARN) -pthread -Isrc
RELEASE_CFLAGS := $(CFLAGS_COMMON) -O3 -DNDEBUG -flto=auto $(ARCH_FLAGS) $(TUNE_FLAGS) $(CPPFLAGS) $(CFLAGS)
DEBUG_CFLAGS   := $(CFLAGS_COMMON) -O1 -g
SANITIZE_CFLAGS := $(CFLAGS_COMMON) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $(NATIVE)
TSAN_CFLAGS := $(CFLAGS_COMMON) -O1 -g -fsanitize=thread
LDLIBS  := -lm -pthread -lfathom -lmicrohttpd

# The core is flat in src/; self-contained families have folders (docs/source-map.md).
SOURCES := $(wildcard src/*.c src/*/*.c)
LIB_SOURCES := $(filter-out src/main.c,$(SOURCES))
TEST_SOURCES := $(wildcard tests/test_*.c)
HEADERS := $(wildcard src/*.h src/*/*.h) $(wildcard tests/*.h)

.PHONY: all run debug tuning install uninstall build-tests package-test FORCE test build-deps test-deps deps-check syzygy-test unit-tests debug-tests sanitize-tests nnue-train-test selfplay-store-test net web-tests script-tests tsan-tests book-interop annotate-test conformance-uci polyglot-match conformance-cecp xboard-match console-tests memory-tests perft-full perft-speed bench-check fuzz fuzz-short lab clean

all: $(EXE)

# ---- objects per configuration -------------------------------------------
# The optimised objects are rebuilt when their flags change (another ARCH,
# CC or CFLAGS in the same BUILD): this file holds the last flags used.
RELEASE_FLAGS_TEXT := $(CC) $(RELEASE_CFLAGS) $(VERSION)
$(BUILD)/release/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(RELEASE_FLAGS_TEXT)' | cmp -s - $@ || echo '$(RELEASE_FLAGS_TEXT)' > $@
FORCE:

$(BUILD)/release/%.o: src/%.c $(HEADERS) $(BUILD)/release/flags
	@mkdir -p $(dir $@)
	$(CC) $(RELEASE_CFLAGS) -c $< -o $@
$(BUILD)/debug/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(DEBUG_CFLAGS) -c $< -o $@
$(BUILD)/sanitize/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE_CFLAGS) -c $< -o $@
$(BUILD)/tsan/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(TSAN_CFLAGS) -c $< -o $@
$(BUILD)/release/tests/%.o: tests/%.c $(HEADERS) $(BUILD)/release/flags
	@mkdir -p $(dir $@)
	$(CC) $(RELEASE_CFLAGS) -c $< -o $@
$(BUILD)/debug/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(DEBUG_CFLAGS) -c $< -o $@
$(BUILD)/sanitize/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE_CFLAGS) -c $< -o $@

# The built-in NNUE network is assembled into this object (.incbin). Not
# through LTO: its link-time assembly would lose the top-level asm's data.
# EVALFILE (OpenBench's name) chooses the file; $(BUILD)/net holds the last
# path and checksum built in, so that another EVALFILE, even an older file,
# rebuilds the object.
EVALFILE ?=
NET := $(or $(EVALFILE),nets/default.nnue)
NET_SHA256 := $(shell sha256sum '$(NET)' 2>/dev/null | cut -c1-12)
NET_DEFS := -DBACHESS_NET_FILE='"$(abspath $(NET))"' -DBACHESS_NET_NAME='"$(notdir $(NET))"' -DBACHESS_NET_SHA256='"$(NET_SHA256)"'
$(BUILD)/net: FORCE
	@test -f '$(NET)' || { echo 'EVALFILE: no file $(NET)'; exit 1; }
	@mkdir -p $(dir $@)
	@echo '$(abspath $(NET)) $(NET_SHA256)' | cmp -s - $@ || echo '$(abspath $(NET)) $(NET_SHA256)' > $@
$(foreach c,release debug sanitize tsan tuning,$(BUILD)/$(c)/nnue/default_net.o): $(NET) $(BUILD)/net
$(BUILD)/release/nnue/default_net.o: RELEASE_CFLAGS += -fno-lto $(NET_DEFS)
$(BUILD)/tuning/nnue/default_net.o: TUNING_CFLAGS += -fno-lto $(NET_DEFS)
$(BUILD)/debug/nnue/default_net.o: DEBUG_CFLAGS += $(NET_DEFS)
$(BUILD)/sanitize/nnue/default_net.o: SANITIZE_CFLAGS += $(NET_DEFS)
$(BUILD)/tsan/nnue/default_net.o: TSAN_CFLAGS += $(NET_DEFS)
# What the binary says of itself (`bachess --version`), and the check of the
# CPU before main(), compiled for plain x86-64 and outside LTO so that it
# uses nothing it is about to check for.
BUILD_DEFS = -DBACHESS_VERSION='"$(VERSION)"' -DBACHESS_ARCH='"$(1)"'
$(BUILD)/release/build_info.o: RELEASE_CFLAGS += $(call BUILD_DEFS,$(ARCH))
$(BUILD)/tuning/build_info.o: TUNING_CFLAGS += $(call BUILD_DEFS,$(ARCH))
$(BUILD)/debug/build_info.o: DEBUG_CFLAGS += $(call BUILD_DEFS,compiler default (debug build))
$(BUILD)/tsan/build_info.o: TSAN_CFLAGS += $(call BUILD_DEFS,compiler default (tsan build))
$(BUILD)/sanitize/build_info.o: SANITIZE_CFLAGS += $(call BUILD_DEFS,native (sanitize build))
$(BUILD)/release/cpu_check.o: RELEASE_CFLAGS += -fno-lto $(BASELINE)
$(BUILD)/tuning/cpu_check.o: TUNING_CFLAGS += -fno-lto $(BASELINE)
$(BUILD)/sanitize/cpu_check.o: SANITIZE_CFLAGS += $(BASELINE)
# The page of `bachess web` (src/web/assets/, built from webpage/src/ by
# webpage/build.sh; web-tests checks that it is) goes in the same way.
WEB_ASSETS := $(shell find src/web/assets -type f 2>/dev/null)
$(foreach c,release debug sanitize tsan tuning,$(BUILD)/$(c)/web/web_assets.o): $(WEB_ASSETS)
$(BUILD)/release/web/web_assets.o: RELEASE_CFLAGS += -fno-lto
$(BUILD)/tuning/web/web_assets.o: TUNING_CFLAGS += -fno-lto

objects = $(patsubst src/%.c,$(BUILD)/$(1)/%.o,$(2))
test_objects = $(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_SOURCES))

# ---- programs ------------------------------------------------------------
$(EXE): $(call objects,release,$(SOURCES))
	$(CC) $(RELEASE_CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# A tuning build: the search parameters (src/search_params.h) as UCI options,
# for scripts/spsa.py.
TUNING_CFLAGS := $(RELEASE_CFLAGS) -DSEARCH_TUNING
$(BUILD)/tuning/%.o: src/%.c $(HEADERS) $(BUILD)/release/flags
	@mkdir -p $(dir $@)
	$(CC) $(TUNING_CFLAGS) -c $< -o $@
bachess-tuning: $(call objects,tuning,$(SOURCES))
	$(CC) $(TUNING_CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)
tuning: bachess-tuning

bachess-debug: $(call objects,debug,$(SOURCES))
	$(CC) $(DEBUG_CFLAGS) $^ -o $@ $(LDLIBS)

# The same for valgrind, which knows no AVX-512 (hence no -march=native).
$(BUILD)/bachess-debug: $(call objects,debug,$(SOURCES))
	$(CC) $(DEBUG_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bachess-sanitize: $(call objects,sanitize,$(SOURCES))
	$(CC) $(SANITIZE_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bachess-tsan: $(call objects,tsan,$(SOURCES))
	$(CC) $(TSAN_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/release/unit-tests: $(call objects,release,$(LIB_SOURCES)) $(call test_objects,release)
	$(CC) $(RELEASE_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

$(BUILD)/debug/unit-tests: $(call objects,debug,$(LIB_SOURCES)) $(call test_objects,debug)
	$(CC) $(DEBUG_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

$(BUILD)/sanitize/unit-tests: $(call objects,sanitize,$(LIB_SOURCES)) $(call test_objects,sanitize)
	$(CC) $(SANITIZE_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

# ---- installing ----------------------------------------------------------
# The engine (its network and book are built in), the manual page and the
# engine file by which XBoard lists it (plugin spec 0.0: the command, then
# the games it plays). The Debian package: PREFIX=/usr BINDIR=/usr/games.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
ENGDIR  ?= $(DATADIR)/games/plugins/xboard
install: $(EXE)
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man6' '$(DESTDIR)$(ENGDIR)'
	install -m 755 '$(EXE)' '$(DESTDIR)$(BINDIR)/bachess'
	sed 's/@VERSION@/$(VERSION)/' man/bachess.6 > '$(DESTDIR)$(MANDIR)/man6/bachess.6'
	chmod 644 '$(DESTDIR)$(MANDIR)/man6/bachess.6'
	printf 'plugin spec 0.0\n%s\nchess,chess960\n' '$(BINDIR)/bachess' > '$(DESTDIR)$(ENGDIR)/bachess.eng'
	chmod 644 '$(DESTDIR)$(ENGDIR)/bachess.eng'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/bachess' '$(DESTDIR)$(MANDIR)/man6/bachess.6' '$(DESTDIR)$(ENGDIR)/bachess.eng'

run: build-deps
	$(MAKE) --no-print-directory $(EXE)
	./$(EXE)

debug: bachess-debug

# ---- tests ---------------------------------------------------------------
build-deps:
	@scripts/install-build-deps.sh

test-deps: build-deps
	@scripts/install-test-deps.sh

# The optimised build runs everything at full test depth; the sanitizer
# build runs the same tests once more with lighter perft depths.
test: test-deps
	$(MAKE) --no-print-directory deps-check
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory debug-tests
	$(MAKE) --no-print-directory sanitize-tests
	$(MAKE) --no-print-directory tsan-tests
	$(MAKE) --no-print-directory book-interop
	$(MAKE) --no-print-directory annotate-test
	$(MAKE) --no-print-directory conformance-uci
	$(MAKE) --no-print-directory polyglot-match
	$(MAKE) --no-print-directory conformance-cecp
	$(MAKE) --no-print-directory xboard-match
	$(MAKE) --no-print-directory package-test
	$(MAKE) --no-print-directory console-tests
	$(MAKE) --no-print-directory memory-tests
	$(MAKE) --no-print-directory perft-counts
	$(MAKE) --no-print-directory bench-check
	$(MAKE) --no-print-directory build-tests
	$(MAKE) --no-print-directory nnue-train-test
	$(MAKE) --no-print-directory selfplay-store-test
	$(MAKE) --no-print-directory syzygy-test
	$(MAKE) --no-print-directory web-tests
	$(MAKE) --no-print-directory fuzz-short
	$(MAKE) --no-print-directory script-tests

unit-tests: $(EXE) $(BUILD)/release/unit-tests
	BACHESS_DATA=data $(BUILD)/release/unit-tests --jobs 2

# The unit tests once more on the debug build, whose assertions check the
# board after every make/unmake, the legality of every move searched and
# the pairing of the evaluation's push/pop hooks (lighter perft depths).
debug-tests: $(BUILD)/debug/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/debug/unit-tests --jobs 2

# The include layers and no include circles (docs/source-map.md); every
# reference in comments and docs resolves (scripts/check-references.py).
deps-check: $(EXE)
	scripts/check-deps.sh
	scripts/check-references.py
	scripts/check-symbols.sh $(BUILD)/release

# Syzygy tables (data/syzygy) through Fathom: 1,000 positions against
# Debian's fathom CLI, the options and commands of both protocols, bad paths;
# then three endgames played out against Stockfish (tests/tb_conversion_test.py).
syzygy-test: $(EXE)
	python3 tests/syzygy_test.py ./$(EXE) 1000
	python3 tests/tb_conversion_test.py ./$(EXE)

# The measuring scripts whose figures the docs quote: scripts/pgn-score.py.
# The checks of the tree fail on planted defects: an include circle, a
# dangling reference.
script-tests:
	python3 tests/pgn_score_test.py
	python3 tests/annotate_judge_test.py
	tests/check_deps_test.sh
	python3 tests/check_references_test.py

# Threaded search under ThreadSanitizer: stop/ponderhit/isready races.
tsan-tests: $(BUILD)/bachess-tsan
	tests/tsan_races.sh $(BUILD)/bachess-tsan

sanitize-tests: $(BUILD)/sanitize/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/sanitize/unit-tests --jobs 2

# Console play driven in a pseudo-terminal, with the optimised and the
# sanitizer build; the PGN it writes is checked with pgn-extract.
console-tests: $(EXE) $(BUILD)/bachess-sanitize
	python3 tests/console_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	python3 tests/console_test.py $(BUILD)/bachess-sanitize

# `bachess web`: the server under bad and heavy use (tests/web_server_test.py),
# optimised and with the sanitizers; the page in headless chromium
# (tests/web_browser_test.mjs), with a screenshot in $(BUILD)/web.png (docs/web.png is one).
web-tests: $(EXE) $(BUILD)/bachess-sanitize
	webpage/check-build.sh
	python3 tests/web_server_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	ASAN_OPTIONS=quarantine_size_mb=8 python3 tests/web_server_test.py $(BUILD)/bachess-sanitize
	node tests/web_browser_test.mjs $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) $(BUILD)/web.png

# Memory (tests/memory_test.py): Hash N costs N MiB of resident memory, up
# and down, with the optimised build; whole games over UCI and CECP leak
# nothing, under LeakSanitizer and under valgrind (the debug build: valgrind
# cannot run -march=native code on AVX-512 machines).
memory-tests: $(EXE) $(BUILD)/bachess-sanitize $(BUILD)/bachess-debug
	python3 tests/memory_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) $(BUILD)/bachess-sanitize $(BUILD)/bachess-debug

# UCI conformance (start-up, the UCI scenarios, bad input), legality judged by stockfish.
conformance-uci: $(EXE) $(BUILD)/bachess-sanitize
	python3 tests/conformance/uci_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	python3 tests/conformance/uci_test.py $(BUILD)/bachess-sanitize

# XBoard protocol conformance (start-up, the CECP scenarios, bad input), legality
# judged by stockfish; the sanitizer build runs the scenarios with searches,
# races and bad input again.
conformance-cecp: $(EXE) $(BUILD)/bachess-sanitize
	python3 tests/conformance/cecp_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	CECP_ONLY=04,05,11,13,17,18,19,22,24,25 python3 tests/conformance/cecp_test.py $(BUILD)/bachess-sanitize

# Two games under XBoard (headless) with bachess speaking CECP vs fairymax,
# then XBoard's analysis mode.
xboard-match: $(EXE)
	scripts/xboard-match.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) 2
	XB_VARIANT=fischerandom XB_ANALYSIS=0 XB_OPPONENT=$(abspath $(EXE)) scripts/xboard-match.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) 2

# The Debian package (tests/package_test.sh): built in a copy under /tmp,
# lintian without errors, installed with dpkg -i, /usr/games/bachess answering
# UCI and XBoard with a depth-5 search in each, a game under XBoard started
# with `-fcp bachess` against fairymax; then removed again.
package-test:
	tests/package_test.sh

# Two games under XBoard (headless) with bachess behind polyglot vs fairymax.
polyglot-match: $(EXE)
	scripts/polyglot-match.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) 2

# Polyglot books and PGN against Debian's polyglot and pgn-extract (same
# book as make-book, both read each other's, pgn-extract accepts our PGN).
book-interop: $(EXE)
	tests/book_interop.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) data

# `bachess annotate` end to end (tests/annotate_test.py): a hung queen and a
# missed mate marked ??, the better line, an [%eval] on every move, an
# unreadable game passed over, pgn-extract reading the output, the same
# output with two workers, SIGINT keeping whole games. Node-limited searches.
annotate-test: $(EXE)
	python3 tests/annotate_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) data

perft-full: $(EXE)
	scripts/perft-suite.sh ./$(EXE) data/perft.epd full

# perft node counts of the command line against Stockfish's (start position
# to depth 6, Kiwipete to depth 5); part of make test. Not timed.
perft-counts: $(EXE)
	scripts/perft-speed.sh --counts ./$(EXE)

# A benchmark, not a test: perft speed against Stockfish's, best of 5; prints
# the ratio and fails only if the node counts disagree (perft-speed: old name).
bench-perft perft-speed: $(EXE)
	RUNS=5 scripts/perft-speed.sh ./$(EXE)

# A benchmark, not a test: bachess annotate on games with real mistakes, timed,
# then its ?? marks against Stockfish's at JUDGE_NODES a position by the same
# rule (docs/annotate.md, "Benchmarks"). The judge's searches are cached under
# build/, so only the first run pays for them (about 3 h of one core at 1 M nodes a position).
ANNOTATE_GAMES ?= data/annotate/blunder-games.pgn
ANNOTATE_ARGS ?= --movetime 100 --threads 2
JUDGE_NODES ?= 1000000
JUDGE_GAMES ?= 0
JUDGE_JOBS ?= 2
bench-annotate: $(EXE)
	python3 scripts/annotate-judge.py $(ANNOTATE_GAMES) --bachess $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) \
		--annotate-args "$(ANNOTATE_ARGS)" --out $(BUILD)/annotate-bench.pgn \
		--judge-nodes $(JUDGE_NODES) --judge-games $(JUDGE_GAMES) --jobs $(JUDGE_JOBS) \
		--cache $(BUILD)/annotate-judge-cache.jsonl
.PHONY: perft-counts bench-perft bench-annotate flake-hunt

# The NNUE pipeline on a tiny data set: datagen, training (Debian's PyTorch,
# /usr/bin/python3), export, and the engine's evaluation equal to Python's.
nnue-train-test: $(EXE)
	/usr/bin/python3 tests/nnue_train_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))

# The built-in net trained again from the self-play store by its recipe
# (nets/default.recipe) and compared with nets/default.nnue byte for byte
# (scripts/nnue/make-net.sh). Not part of `make test`: it trains a full net.
net: $(EXE)
	scripts/nnue/make-net.sh

# The self-play store (data/selfplay): every chunk against its manifest,
# every game replayed; planted defects found; datagen -> store -> trainer
# gives datagen's own records; a small net trained twice is the same bytes.
selfplay-store-test: $(EXE)
	/usr/bin/python3 tests/selfplay_store_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))

# The bench node count must equal the last "Bench: N" stated in git history.
bench-check: $(EXE)
	scripts/check-bench.sh ./$(EXE)

# The ARCH builds (same bench, ARCH in --version, the CPU check), EVALFILE
# and the bench's last line in OpenBench's form (tests/build_test.sh); the
# builds go to $(BUILD)/build-tests.
build-tests: $(EXE)
	tests/build_test.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) $(BUILD)

# libFuzzer targets for every input path (FEN, moves, PGN, books, UCI, CECP,
# EPD; clang): each runs FUZZ_SECONDS, seeded from data/ and fuzz/seeds/,
# corpora and artifacts in $(BUILD)/fuzz. fuzz-short, part of `make test`:
# 6 s each from the seeds alone, two at a time.
fuzz:
	BUILD=$(BUILD) scripts/fuzz.sh all $(FUZZ_SECONDS)

fuzz-short:
	BUILD=$(BUILD) FUZZ_JOBS=2 FUZZ_FRESH=1 scripts/fuzz.sh all 6

# The flake hunt (docs/flakes.md): the suites with threads, pipes, clocks or
# sockets in them, ROUNDS times each while stress-ng keeps every core busy;
# a table of suite, rounds and failures, each failure's log kept in
# $(BUILD)/flake-hunt. Not part of `make test` (about 20 minutes a round).
ROUNDS ?= 10
flake-hunt:
	BUILD=$(BUILD) EXE=$(EXE) scripts/flake-hunt.sh $(ROUNDS) $(FLAKE_SUITES)

# The reliability match: 4 x STRESS_GAMES very fast games over UCI
# (cutechess-cli, built outside the repo) and CECP (XBoard headless), against
# fairymax and a second bachess; fails on any crash, illegal move, time
# loss or false claim of bachess. Not part of `make test` (about half an hour).
STRESS_GAMES ?= 250
stress: $(EXE)
	scripts/stress.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) $(STRESS_GAMES) 1+0.01

# The game-tree lab (docs/lab.md): tables, data and the SVG plot in docs/results/, regenerated.
lab: $(EXE)
	scripts/lab-plot.sh ./$(EXE) docs/results

clean:
	rm -rf $(BUILD) $(EXE) bachess-debug bachess-tuning
