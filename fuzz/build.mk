# fuzz/build.mk — builds the libFuzzer targets into $(BUILD)/fuzz.
# Used by scripts/fuzz.sh; by hand: make -f fuzz/build.mk BUILD=build -j2
#
# The engine's sources (all of src/ but main.c) are compiled once with
# coverage instrumentation and AddressSanitizer + UndefinedBehaviorSanitizer,
# and linked with each fuzz/fuzz_TARGET.c and fuzz/fuzz_common.c. Every
# fopen() is routed through the sandbox guard in fuzz_common.c.

FUZZ_CC ?= clang
BUILD   ?= build
OUT     := $(BUILD)/fuzz

TARGETS := fen move pgn book uci cecp epd net games
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
FLAGS   := -std=gnu11 $(WARN) -pthread -Isrc -Isrc/syzygy/fathom -O1 -g -fno-omit-frame-pointer \
           -fsanitize=address,undefined -fno-sanitize-recover=all
LIBS    := -lm -pthread -lmicrohttpd -Wl,--wrap=fopen

LIB_SOURCES := $(filter-out src/main.c,$(wildcard src/*.c src/*/*.c)) src/syzygy/fathom/tbprobe.c
LIB_OBJECTS := $(patsubst src/%.c,$(OUT)/obj/%.o,$(LIB_SOURCES)) $(OUT)/obj/harness/fuzz_common.o
HEADERS     := $(wildcard src/*.h src/*/*.h) fuzz/fuzz_common.h

# Keep the objects (make would delete them as intermediate files).
.SECONDARY:

.PHONY: all
all: $(patsubst %,$(OUT)/fuzz_%,$(TARGETS))

# The built-in NNUE network and the web page are assembled into these objects (.incbin); after
# `all`, which must stay the first target.
$(OUT)/obj/nnue/default_net.o: nets/default.nnue
$(OUT)/obj/web/web_assets.o: $(shell find embed/web -type f)
$(OUT)/obj/games/book_default.o: embed/book.bin

# attacks.c searches its magic numbers at start-up: with coverage hooks on
# every comparison that takes seconds, so it is left uninstrumented.
COVERAGE := -fsanitize=fuzzer-no-link
$(OUT)/obj/attacks.o: COVERAGE :=
# Fathom's own code (src/syzygy/fathom/SOURCE.md) is held to its own warnings.
$(OUT)/obj/syzygy/fathom/tbprobe.o: COVERAGE += -Wno-missing-prototypes -Wno-sign-compare

$(OUT)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FLAGS) $(COVERAGE) -c $< -o $@

$(OUT)/obj/harness/%.o: fuzz/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(OUT)/fuzz_%: $(OUT)/obj/harness/fuzz_%.o $(LIB_OBJECTS)
	$(FUZZ_CC) $(FLAGS) -fsanitize=fuzzer $^ -o $@ $(LIBS)
