#pragma once
/*
 * fuzz_common.h — what the libFuzzer targets (fuzz/fuzz_*.c) share.
 *
 * Each target feeds its input to one of the engine's input paths and then
 * checks what came out: a parsed move is legal, make/unmake restores the
 * position, keys agree with a fresh computation, text written reads back.
 * A failed check aborts with a message, which libFuzzer reports as a crash
 * and saves as an artifact, just like a sanitizer report.
 *
 * The protocol targets (UCI, CECP) run the real dispatchers, which can be
 * told to open files (PGNLog, ConnTrace, BookFile). The targets rewrite
 * such paths to files in a private sandbox directory, and every fopen() of
 * the engine's code is linked through a guard (-Wl,--wrap=fopen) that
 * aborts on any other path while an input is being run, so a fuzzed input
 * can never write outside the sandbox.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define FUZZ_CHECK(cond) ((cond) ? (void)0 : fuzz_fail(#cond, __FILE__, __LINE__))
_Noreturn void fuzz_fail(const char *what, const char *file, int line);

/* A NUL-terminated copy of the input (the caller frees it). */
char *fuzz_text(const uint8_t *data, size_t size);

/* Calls `run` for each line of the input (split at '\n', a trailing '\r'
 * removed, as the engine's line reader does), on a writable copy; stops
 * when `run` returns false. */
void fuzz_for_each_line(const uint8_t *data, size_t size, bool (*run)(char *line, void *context), void *context);

/* Sends stdout to /dev/null (protocol chatter), unless BACHESS_FUZZ_VERBOSE is set. */
void fuzz_quiet_stdout(void);

/* ---- the file sandbox ---- */
/* The sandbox directory: $BACHESS_FUZZ_TMP, else a fresh one under /tmp
 * (removed at exit). Created by the first call. */
const char *fuzz_sandbox(void);
/* The path of `name` inside the sandbox; the string lasts until the end. */
const char *fuzz_sandbox_path(const char *name);
/* While on, the fopen guard refuses every path outside the sandbox (and
 * /dev/null). The targets turn it on around the engine calls only, since
 * libFuzzer itself writes its corpus and artifacts through fopen. */
void fuzz_guard_files(bool on);
/* Writes a small valid Polyglot book and a damaged one into the sandbox
 * (BookFile values are rewritten to them). */
void fuzz_write_sandbox_books(void);

/* ---- the protocol targets ---- */
/* What the UCI and CECP targets set up once: the engine and its options,
 * quiet stdout, the sandbox's books and log path, options at defaults. */
void fuzz_protocol_init(void);
/* Hands a dispatcher (uci_command, xboard_command) a writable copy of
 * text, as the line reader would; returns what it returns. */
bool fuzz_send_line(bool (*dispatch)(char *line), const char *text);

/* Limits of the protocol targets: a small table, few threads. */
enum { FUZZ_HASH_MB = 1, FUZZ_MAX_HASH_MB = 4, FUZZ_MAX_THREADS = 4 };
/* Puts every engine option back to its default value (Hash: FUZZ_HASH_MB). */
void fuzz_options_reset(void);
/* The value to use instead of `value` for option `name` (NULL: keep it):
 * sandbox paths for PGNLog, ConnTrace and BookFile, and at most
 * FUZZ_MAX_HASH_MB and FUZZ_MAX_THREADS for Hash and Threads. */
const char *fuzz_safe_option_value(const char *name, const char *value);
/* Does `text` hold a whole number above `limit` (as the option parser reads it)? */
bool fuzz_number_above(const char *text, long long limit);
/* Aborts if an option escaped the rewriting (a harness fault, not the engine's). */
void fuzz_check_options_safe(void);

/* ---- positions ---- */
/* A few boards with castling, en passant, promotions, pins and ambiguous
 * SAN, for the move and book targets. */
extern const char *const FUZZ_FENS[];
extern const int FUZZ_FEN_COUNT;

/* Checks the board's invariants: mailbox and bitboards agree, one king
 * each, keys equal a fresh computation, the checkers are right. */
void fuzz_check_board(const Board *b);
/* Plays and takes back every legal move, checking the invariants after
 * each and that the position comes back exactly; checks the notation and
 * Polyglot round trips of every move. */
void fuzz_check_moves(Board *b);
/* Is m one of the legal moves (by the generator and by move_is_legal)? */
bool fuzz_move_is_legal(const Board *b, Move m);
/* The bytes make/unmake must restore: pieces, side, ply and the history up
 * to the current record. */
bool fuzz_same_position(const Board *a, const Board *b);
