# tests/tests.mk — the test targets, included by the Makefile (which builds
# what they test). Each target is described once, above its rule; the table
# of targets and what each suite checks is docs/testing.md.

# The Python suites run under Debian's pytest (tests/conftest.py says what
# they take from the environment); no bytecode is written into the tree.
PYTEST := PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest

.PHONY: test test-deps check unit-tests debug-tests sanitize-tests deps-check syzygy-test script-tests tsan-tests console-tests web-tests memory-tests conformance-uci conformance-cecp xboard-match package-test polyglot-match book-interop annotate-test perft-full perft-counts bench-perft perft-speed bench-eval bench-annotate bench-nps nnue-train-test trainer-test trainer-bench selfplay-store-test bench-check build-tests cross-tests windows-xboard-match windows-match release-test fuzz fuzz-short flake-hunt stress soak lab

test-deps: build-deps
	@scripts/install-test-deps.sh

# `make test` runs its suites in two lanes side by side (the machine's two
# cores; TEST_JOBS=1 runs them one after another): the Criterion suites,
# the builds, the web page and the short suites in one, the protocols, GUIs,
# package and cross builds in the other, with the NNUE pipeline's test last
# so that the two lanes end about together. Suites that can collide stay in
# one lane: everything under xvfb-run (`-a` picks a free display without a
# lock, so two at once can take the same one), and cross-tests before the
# Windows match, both building bachess.exe and using its wine prefix. The
# binaries the suites share are built first (in parallel), so that no two
# lanes compile into the same directory. Each suite's output
# is printed whole when it ends, with its wall time ("make test: SUITE
# passed in N s"), so that where the time goes can be read from any run's
# log. The optimised build runs everything at full test depth; the sanitizer
# build runs the same tests once more with lighter perft depths.
TEST_JOBS ?= 2
TEST_LANE_BUILDS := deps-check unit-tests debug-tests sanitize-tests build-tests fuzz-short tsan-tests \
	book-interop annotate-test console-tests memory-tests perft-counts bench-check \
	trainer-test selfplay-store-test syzygy-test web-tests script-tests
TEST_LANE_PROTOCOLS := conformance-uci polyglot-match conformance-cecp xboard-match package-test \
	cross-tests windows-xboard-match nnue-train-test
TEST_SUITES := $(TEST_LANE_BUILDS) $(TEST_LANE_PROTOCOLS)
TEST_BINARIES := $(EXE) $(BUILD)/release/unit-tests $(BUILD)/debug/unit-tests $(BUILD)/sanitize/unit-tests \
	$(BUILD)/bachess-sanitize $(BUILD)/bachess-debug $(BUILD)/bachess-tsan
timed = @t0=$$(date +%s); $(MAKE) --no-print-directory $(1) && echo "make test: $(1) passed in $$(($$(date +%s) - t0)) s"

test: test-deps
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(TEST_BINARIES)
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(addprefix test-suite-,$(TEST_SUITES))

# One target a suite (a static pattern: make looks for no implicit rule of a
# phony target); each waits for the suite before it in its lane.
$(addprefix test-suite-,$(TEST_SUITES)): test-suite-%:
	$(call timed,$*)
lane-order = $(if $(word 2,$(1)),$(eval test-suite-$(word 2,$(1)): | test-suite-$(firstword $(1)))$(call lane-order,$(wordlist 2,$(words $(1)),$(1))))
$(call lane-order,$(TEST_LANE_BUILDS))
$(call lane-order,$(TEST_LANE_PROTOCOLS))
.PHONY: $(addprefix test-suite-,$(TEST_SUITES))

# The fast tier: the unit tests, the perft counts and the bench signature.
check:
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory perft-counts
	$(MAKE) --no-print-directory bench-check

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

# Syzygy tables (data/syzygy) through Fathom: 1,000 positions against
# Debian's fathom CLI, the options and commands of both protocols, bad paths;
# then three endgames played out against Stockfish (tests/tb_conversion_test.py).
syzygy-test: $(EXE)
	BACHESS=$(RUN_EXE) SYZYGY_POSITIONS=1000 $(PYTEST) tests/syzygy_test.py tests/tb_conversion_test.py

# The measuring scripts whose figures the docs quote: scripts/pgn-score.py;
# scripts/loss-onset.py, which side saw a decided game coming first; the
# soak's judge of every game, scripts/soak-check.py; every command of scripts/
# answers --help.
# The checks of the tree fail on planted defects: an include circle, a
# dangling reference; scripts/release.sh works on a fresh clone.
script-tests:
	$(PYTEST) tests/pgn_score_test.py tests/loss_onset_test.py tests/annotate_judge_test.py \
		tests/time_iterations_test.py tests/engine_speed_test.py tests/soak_check_test.py tests/check_references_test.py \
		tests/script_help_test.py tests/freezewatch_test.py
	/usr/bin/python3 tests/wdl_fit_test.py
	tests/check_deps_test.sh
	tests/own_clock_test.sh
	tests/release_script_test.sh

# Threaded search under ThreadSanitizer: stop/ponderhit/isready races.
tsan-tests: $(BUILD)/bachess-tsan
	tests/tsan_races.sh $(BUILD)/bachess-tsan

sanitize-tests: $(BUILD)/sanitize/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/sanitize/unit-tests --jobs 2

# Console play driven in a pseudo-terminal, with the optimised and the
# sanitizer build; the PGN it writes is checked with pgn-extract.
console-tests: $(EXE) $(BUILD)/bachess-sanitize
	BACHESS=$(RUN_EXE) $(PYTEST) tests/console_test.py
	BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/console_test.py

# `bachess web`: the server under bad and heavy use (tests/web_server_test.py),
# optimised and with the sanitizers; the page in headless chromium
# (tests/web_browser_test.mjs), with a screenshot in $(BUILD)/web.png (docs/web.png is one).
web-tests: $(EXE) $(BUILD)/bachess-sanitize
	webpage/check-build.sh
	BACHESS=$(RUN_EXE) $(PYTEST) tests/web_server_test.py
	ASAN_OPTIONS=quarantine_size_mb=8 BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/web_server_test.py
	node tests/web_browser_test.mjs $(RUN_EXE) $(BUILD)/web.png

# Memory (tests/memory_test.py): Hash N costs N MiB of resident memory, up
# and down, with the optimised build; whole games over UCI and CECP leak
# nothing, under LeakSanitizer and under valgrind (the debug build: valgrind
# cannot run -march=native code on AVX-512 machines).
memory-tests: $(EXE) $(BUILD)/bachess-sanitize $(BUILD)/bachess-debug
	BACHESS=$(RUN_EXE) BACHESS_SANITIZE=$(BUILD)/bachess-sanitize BACHESS_DEBUG=$(BUILD)/bachess-debug \
		$(PYTEST) tests/memory_test.py

# UCI conformance (start-up, the UCI scenarios, bad input), legality judged by stockfish.
conformance-uci: $(EXE) $(BUILD)/bachess-sanitize
	BACHESS=$(RUN_EXE) $(PYTEST) tests/conformance/uci_test.py
	BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/conformance/uci_test.py

# XBoard protocol conformance (start-up, the CECP scenarios, bad input), legality
# judged by stockfish; the sanitizer build runs the scenarios with searches,
# races and bad input again.
conformance-cecp: $(EXE) $(BUILD)/bachess-sanitize
	BACHESS=$(RUN_EXE) $(PYTEST) tests/conformance/cecp_test.py
	CECP_ONLY=04,05,11,13,17,18,19,22,24,25 BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/conformance/cecp_test.py

# Two games under XBoard (headless) with bachess speaking CECP vs fairymax,
# then XBoard's analysis mode.
xboard-match: $(EXE)
	scripts/xboard-match.sh $(RUN_EXE) 2
	XB_VARIANT=fischerandom XB_ANALYSIS=0 XB_OPPONENT=$(abspath $(EXE)) scripts/xboard-match.sh $(RUN_EXE) 2

# The Debian package (tests/package_test.sh): built in a copy under /tmp,
# lintian without errors, installed with dpkg -i, /usr/games/bachess answering
# UCI and XBoard with a depth-5 search in each, a game under XBoard started
# with `-fcp bachess` against fairymax; then removed again.
package-test:
	tests/package_test.sh

# Two games under XBoard (headless) with bachess behind polyglot vs fairymax.
polyglot-match: $(EXE)
	scripts/polyglot-match.sh $(RUN_EXE) 2

# Polyglot books and PGN against Debian's polyglot and pgn-extract (same
# book as make-book, both read each other's, pgn-extract accepts our PGN).
book-interop: $(EXE)
	tests/book_interop.sh $(RUN_EXE) data

# `bachess annotate` end to end (tests/annotate_test.py): a hung queen and a
# missed mate marked ??, the better line, an [%eval] on every move, an
# unreadable game passed over, pgn-extract reading the output, the same
# output with two workers, SIGINT keeping whole games. Node-limited searches.
annotate-test: $(EXE)
	BACHESS=$(RUN_EXE) DATA=data $(PYTEST) tests/annotate_test.py

perft-full: $(EXE)
	scripts/perft-suite.sh $(RUN_EXE) data/perft.epd full

# perft node counts of the command line against Stockfish's (start position
# to depth 6, Kiwipete to depth 5); part of make test. Not timed.
perft-counts: $(EXE)
	scripts/perft-speed.sh --counts $(RUN_EXE)

# A benchmark, not a test: perft speed against Stockfish's, best of 5; prints
# the ratio and fails only if the node counts disagree (perft-speed: old name).
bench-perft perft-speed: $(EXE)
	RUNS=5 scripts/perft-speed.sh $(RUN_EXE)

# A benchmark, not a test: evaluations a second over the WAC positions,
# hand-written and NNUE (bachess eval --speed; EVAL_ROUNDS=N, default 2000).
EVAL_ROUNDS ?= 2000
bench-eval: $(EXE)
	$(RUN_EXE) eval --speed data/wac.epd $(EVAL_ROUNDS)

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
	python3 scripts/annotate-judge.py $(ANNOTATE_GAMES) --bachess $(RUN_EXE) \
		--annotate-args "$(ANNOTATE_ARGS)" --out $(BUILD)/annotate-bench.pgn \
		--judge-nodes $(JUDGE_NODES) --judge-games $(JUDGE_GAMES) --jobs $(JUDGE_JOBS) \
		--cache $(BUILD)/annotate-judge-cache.jsonl

# A benchmark, not a test: nodes a second on six STS positions (data/sts-speed.epd),
# NPS_MS each (default 2000), one thread, Hash 16, the engines taking turns position by
# position: bachess with its network and with Evaluation=Classical, and each anchor
# engine whose command is in BERSERK, STORMPHRAX, ETHEREAL or STOCKFISH11 (docs/testing.md).
NPS_MS ?= 2000
NPS_ANCHORS := $(if $(BERSERK),"berserk=$(BERSERK)") $(if $(STORMPHRAX),"stormphrax=$(STORMPHRAX)") \
	$(if $(ETHEREAL),"ethereal=$(ETHEREAL)") $(if $(STOCKFISH11),"stockfish11=$(STOCKFISH11)")
bench-nps: $(EXE)
	python3 scripts/engine-speed.py "bachess-nnue=$(RUN_EXE)" "bachess-classical=$(RUN_EXE);Evaluation=Classical" \
		$(NPS_ANCHORS) --positions data/sts-speed.epd --count 6 --movetime $(NPS_MS)

# The NNUE pipeline on a tiny data set: datagen, training (Debian's PyTorch,
# /usr/bin/python3), export, and the engine's evaluation equal to Python's.
nnue-train-test: $(EXE)
	BACHESS=$(RUN_EXE) $(PYTEST) tests/nnue_train_test.py

# The C trainer (bachess-train, built by the Makefile) against the PyTorch
# model (forward and gradient), the engine's evaluation of the nets it
# writes, its bytes, its errors.
trainer-test: $(EXE) $(TRAINER)
	BACHESS=$(RUN_EXE) BACHESS_TRAIN=./$(TRAINER) $(PYTEST) tests/trainer_test.py

# A benchmark, not a test: the trainer's positions a second on the store's
# first records (scripts/nnue/trainer-bench.sh; TRAINER_BENCH_POSITIONS, TRAINER_THREADS).
trainer-bench: $(EXE) $(TRAINER)
	scripts/nnue/trainer-bench.sh $(RUN_EXE) ./$(TRAINER)

# The self-play store (data/selfplay): every chunk against its manifest,
# every game replayed; planted defects found; datagen -> store -> trainer
# gives datagen's own records; a small net trained twice is the same bytes
# (with train.py, and through make-net.sh with bachess-train).
selfplay-store-test: $(EXE) $(TRAINER)
	BACHESS=$(RUN_EXE) $(PYTEST) tests/selfplay_store_test.py

# The bench node count must equal the last "Bench: N" stated in git history.
bench-check: $(EXE)
	scripts/check-bench.sh $(RUN_EXE)

# The ARCH builds (same bench, ARCH in --version, the CPU check), EVALFILE
# and the bench's last line in OpenBench's form (tests/build_test.sh); the
# builds go to $(BUILD)/build-tests; then the header dependencies
# (tests/make_deps_test.sh, in $(BUILD)/make-deps).
build-tests: $(EXE)
	tests/build_test.sh $(RUN_EXE) $(BUILD)
	tests/make_deps_test.sh $(BUILD)

# The cross builds under emulation (docs/testing.md): bachess.exe
# (x86-64-v3) under wine (tests/windows_test.py), bachess-aarch64 and the
# evaluator's and perft tests under qemu-aarch64 (tests/aarch64_test.sh).
# Each build is made by a make of its own, told every variable that a
# command line could otherwise pass down to it.
CROSS_DIR := $(BUILD)/cross
WINDOWS_EXE := $(CROSS_DIR)/windows/bachess.exe
AARCH64_EXE := $(CROSS_DIR)/aarch64/bachess-aarch64
cross-build = $(MAKE) --no-print-directory CC=$(1) BUILD=$(patsubst %/,%,$(dir $(2))) EXE=$(2) $(3) $(2) $(4)
# bachess.exe as the cross tests and both Windows matches use it.
windows-exe = $(call cross-build,x86_64-w64-mingw32-gcc-posix,$(WINDOWS_EXE),PLATFORM=windows ARCH=x86-64-v3)
cross-tests: $(EXE)
	$(windows-exe)
	BACHESS_EXE=$(WINDOWS_EXE) BACHESS=$(RUN_EXE) WINDOWS_WORK=$(CROSS_DIR)/windows $(PYTEST) tests/windows_test.py
	$(call cross-build,aarch64-linux-gnu-gcc,$(AARCH64_EXE),ARCH=aarch64,$(CROSS_DIR)/aarch64/release/cross-tests)
	tests/aarch64_test.sh $(AARCH64_EXE) $(CROSS_DIR)/aarch64/release/cross-tests $(RUN_EXE) $(CROSS_DIR)/aarch64

# A match of bachess.exe (x86-64-v3) under wine against the Linux build,
# 10 games at 5+0.05, XBoard refereeing headless, then bachess.exe in
# XBoard's analysis mode (docs/testing.md says what fails it and why
# pondering is off: XB_PONDER=true turns it on). The wine prefix is
# tests/windows_test.py's, made or brought up to date first as that test
# does (without Mono and Gecko, whose installers would wait under xvfb for
# an answer); the logs go to $(CROSS_DIR)/windows/xboard-match.
WINE_ENV = WINEPREFIX=$(abspath $(CROSS_DIR)/windows/wine) WINEDEBUG=-all
windows-xboard-match: $(EXE)
	$(windows-exe)
	$(WINE_ENV) WINEDLLOVERRIDES="mscoree,mshtml=" wineboot --init && $(WINE_ENV) wineserver --wait
	$(WINE_ENV) XB_FIRST_WRAPPER=wine XB_OPPONENT=$(abspath $(EXE)) XB_TC=0:05 XB_INC=0.05 XB_PONDER=$${XB_PONDER:-false} \
		scripts/xboard-match.sh $(WINDOWS_EXE) 10 $(CROSS_DIR)/windows/xboard-match

# The same match through fastchess, a developer's tool: no Debian package
# has fastchess (scripts/match.sh: FASTCHESS, built by hand outside the
# repository), so neither `make test` nor CI can run it; fails on a crash,
# a time loss or an illegal move (docs/testing.md).
windows-match: $(EXE)
	$(windows-exe)
	BACHESS_EXE=$(WINDOWS_EXE) BACHESS=$(RUN_EXE) WINDOWS_WORK=$(CROSS_DIR)/windows $(PYTEST) tests/windows_test.py >/dev/null
	WINEPREFIX=$(abspath $(CROSS_DIR)/windows/wine) WINEDEBUG=-all scripts/match.sh --runner fastchess \
		--pgn $(abspath $(CROSS_DIR)/windows/match.pgn) --name bachess.exe \
		"wine $(abspath $(WINDOWS_EXE))" bachess:$(abspath $(EXE)) 10 5+0.05

# release-test: the release archives (scripts/release.sh) made twice, the
# second time in other build folders, and their bytes compared.
release-test:
	scripts/release.sh $(BUILD)/release-a
	BUILD_DIR=$(BUILD)/dist-b scripts/release.sh $(BUILD)/release-b
	cmp $(BUILD)/release-a/SHA256SUMS $(BUILD)/release-b/SHA256SUMS && echo "release: the same bytes twice"

# libFuzzer targets for every input path (FEN, moves, PGN, books, UCI, CECP,
# EPD; clang): each runs FUZZ_SECONDS, seeded from data/ and fuzz/seeds/,
# corpora and artifacts in $(BUILD)/fuzz. fuzz-short, part of `make test`:
# 6 s each from the seeds alone, two at a time.
FUZZ_SECONDS ?= 60
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
	scripts/stress.sh $(RUN_EXE) $(STRESS_GAMES) 1+0.01

# The soak (docs/testing.md, "The soak"): 1,000 games over UCI (fastchess,
# built outside the repository: FASTCHESS or the PATH), 200 under XBoard,
# 100 of bachess.exe under wine and 20 of bachess-aarch64 under qemu, every
# game checked by scripts/soak-check.py; the PGNs, logs and the table
# soak.md in SOAK_DIR. Not part of `make test` (hours); SOAK_GAMES=N and
# the like scale it down (scripts/soak.sh's header).
SOAK_DIR ?= $(BUILD)/soak
soak: $(EXE)
	$(windows-exe)
	$(call cross-build,aarch64-linux-gnu-gcc,$(AARCH64_EXE),ARCH=aarch64)
	WINDOWS_EXE=$(WINDOWS_EXE) AARCH64_EXE=$(AARCH64_EXE) scripts/soak.sh $(RUN_EXE) $(SOAK_DIR)

# The game-tree lab (docs/lab.md): tables, data and the SVG plot in docs/results/, regenerated.
lab: $(EXE)
	scripts/lab-plot.sh $(RUN_EXE) docs/results
