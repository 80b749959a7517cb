#pragma once
/*
 * web_review.h — "Review game" of `bachess web`: a game's PGN annotated by
 * `bachess annotate` (docs/annotate.md), run as a child process of the
 * server.
 *
 * Why a child process: the engine is one per process (global state), and
 * the server's engine is the pages' (their play and analysis). A review in
 * the server's own process would take that engine from under them; the
 * child, this same binary (/proc/self/exe), has an engine of its own, and
 * what the annotator writes is exactly what `bachess annotate` writes.
 *
 * One review at a time; the child gets the PGN on its standard input (a
 * memory file: annotate reads its input twice, so it must be a regular
 * file) and its annotated PGN is read from a pipe. A child that outlives
 * its time (REVIEW_SECONDS_* below, from the number of positions) or the
 * server is killed, with its own workers (its process group).
 */
#include <stdbool.h>
#include <stddef.h>

enum {
    /* Nodes searched in each position unless `bachess web --review-nodes`
     * says otherwise: a fifth of `bachess annotate`'s default, so that a
     * page's review comes back in seconds. About 0.1 s of CPU a position on
     * the 2-core development machine, release build (docs/web.md). */
    REVIEW_NODES = 200000,
    REVIEW_NODES_MAX = 100000000, /* --review-nodes at most: about a minute a position, each look */
    REVIEW_SECONDS_MAX = 86400,   /* --review-seconds at most */
    /* The child's time unless `--review-seconds` says otherwise:
     * REVIEW_SECONDS_START, and each position's nodes at
     * REVIEW_NODES_PER_SECOND_MIN, REVIEW_NODES_WORST_FACTOR times over;
     * then it is killed. A bound on a child
     * that hangs, not on a slow one. Measured worst cases
     * (tests/web_server_test.py, 7 positions, the child's start included):
     * 71,000 nodes a second on the release build beside stress-ng --cpu 2
     * (20,000 nodes a position), a margin of 14 times. The sanitizer build
     * searches about ten times slower, and needs no bound of its own: its
     * worst, 4,100 nodes a second with the machine's load average at 26
     * (5,000 nodes a position), is still within REVIEW_SECONDS_START for
     * the tests' games (2,000 nodes a position, 8 positions: about 4 s of
     * 13.2, measured before the second look, whose worst case and limit are
     * six times these). The child starts in 0.13 s (sanitizer build, loaded). */
    REVIEW_SECONDS_START = 10,
    /* A position's nodes at worst, in the nodes asked for: the first look,
     * and a second look with five times the nodes (`bachess annotate`,
     * docs/annotate.md; a front end includes no tool's header, so
     * tests/test_annotate.c checks that the two agree). */
    REVIEW_NODES_WORST_FACTOR = 6,
    REVIEW_NODES_PER_SECOND_MIN = 5000,
    /* Workers of a review at most: `bachess annotate --threads` takes no
     * more (tests/test_annotate.c checks that the two agree). */
    REVIEW_WORKERS_MAX = 64,
    /* The annotated PGN read back at most: a game of the longest request
     * (WEB_BODY_MAX, about 800 plies) is about a tenth of it. */
    REVIEW_OUTPUT_MAX = 1 << 20,
};

typedef enum {
    REVIEW_OK,
    REVIEW_BUSY,   /* another review is under way */
    REVIEW_FAILED, /* the reason in `error` */
} ReviewOutcome;

/* The nodes of each position's search, from 1 (`bachess web --review-nodes`),
 * the time a review may take in seconds, 0 for the default above
 * (`--review-seconds`), the annotator's workers, which share out the
 * game's positions: the engine's threads (`--threads`), at most
 * REVIEW_WORKERS_MAX, and the Syzygy tables' directories the engine found
 * tables in (`--syzygy`), or NULL: the review probes the same tables. */
void web_review_configure(long nodes, long seconds, long workers, const char *tablebases);
/* Annotates `pgn`, a game of `plies` moves. On REVIEW_OK `*annotated` is the
 * annotated PGN (the caller frees it); otherwise NULL, with the reason in
 * `error`. Blocks until the child is done, killed at its time limit. */
ReviewOutcome web_review_run(const char *pgn, int plies, char **annotated, char *error, size_t error_size);
/* The server is stopping: a review under way is killed now and fails, and
 * none starts after. */
void web_review_cancel(void);
