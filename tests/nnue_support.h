#pragma once
/*
 * nnue_support.h — network files with seeded random weights for the NNUE
 * tests (test_nnue.c, test_nnue_king_buckets.c): any version of the file
 * format, as bytes or loaded; and random playouts that check the
 * evaluator's incremental sums against an evaluation from scratch. These
 * are tests of the machinery, not of the net's chess.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evaluator.h"
#include "nnue/network.h"

enum { TEST_HIDDEN = 64 };

typedef struct {
    int hidden, activation;
    int output_buckets;           /* 0: a version-1 file (one bucket), else version 2 or later */
    bool king_mirroring;          /* version 3 or later */
    int king_buckets;             /* 0: versions 1 to 3; else version 4 with `king_map` */
    const uint8_t *king_map;      /* 64 entries, written as they are (valid or not) */
    uint64_t seed;
} TestNetSpec;

/* King bucket maps (a1, b1, ... h8 as the perspective sees its king):
 * HOME4 is symmetric left to right, so a mirroring net reads all four of
 * its buckets: rank 1 apart from d1/e1, d1/e1, rank 2, the rest. SIDES7
 * tells the wings apart (a net that does not mirror): ranks 1, 2 and 3-4
 * each split at the d/e line, then ranks 5-8 in one. */
extern const uint8_t TEST_KING_MAP_HOME4[64];
extern const uint8_t TEST_KING_MAP_SIDES7[64];

/* Output bucket k's bias in the random networks: each bucket's differs. */
int32_t test_output_bias(int bucket);

/* The file of `spec` as bytes (the caller frees them): the oldest version
 * that holds it. The same seed gives the same first king bucket's input
 * weights, input bias and first output bucket in every version. */
unsigned char *test_net_file(const TestNetSpec *spec, size_t *size);
/* The header size of the file's version, where its payload starts. */
size_t test_net_header_size(const unsigned char *file);
/* Sets the file's checksum right again after a change to its payload. */
void test_net_fix_checksum(unsigned char *file, size_t size);
/* The file of `spec` loaded; fails the test if it is refused. */
Network test_net_load(const TestNetSpec *spec);

/* The view by the file format's words, written out here rather than taken
 * from nnue_view(): the king's square as its side sees it, rank 1 its own
 * back rank, mirrored to files a-d by a mirroring net; the map's entry. */
NnueView test_expected_view(const Network *net, Color side, Square king);

/* Random playouts through the evaluator's push/pop hooks. */
typedef struct {
    const char *fen;  /* where each game starts */
    uint64_t seed;
    int games, plies; /* at most `plies` moves a game, then all taken back */
    bool null_moves;  /* before some moves, a null move evaluated and taken back */
} TestPlayouts;

/* Plays `p` with `net` selected, through the caller's evaluator state `e`
 * (as a search thread's is the engine's: it may have evaluated with
 * another network before). A third of the positions, every position on
 * the way back and every null move are compared with an evaluation from
 * scratch, so an update may span several moves, some of which change a
 * view. Returns how many times a move changed a perspective's view. */
int test_follow_playouts(EvalState *e, const Network *net, const TestPlayouts *p);
