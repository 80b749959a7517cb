#pragma once
/*
 * lab_search.h — the game-tree algorithms of the lab, each on a LabTree and
 * each counting its work, so that they can be compared with each other and
 * with the Knuth–Moore bound:
 *
 *   minimax     the reference definition (docs/lab.md): max at MAX nodes, min at MIN nodes, on
 *               values seen from MAX; visits everything.
 *   alphabeta   the reference negamax alpha-beta, verbatim: a = max(a, -child),
 *               return a at a ≥ b. Fail-hard below (an inner node never
 *               returns less than α) and soft above only next to the leaves
 *               (a leaf's value comes back unclamped, so a node whose child is
 *               a leaf may return more than β).
 *   negascout   the reference NegaScout as written: Color form (values seen from MAX,
 *               the bounds swap places instead of being negated), null window
 *               Alpha + Color after the first move, and a re-search with window
 *               (Value, Beta) only if the null-window value lies strictly
 *               between Alpha and Beta, the move is not the first, and the
 *               child is no leaf (the reference's Depth < MaxDepth - 1).
 *   pvs         a textbook principal variation search, negamax, fail-hard:
 *               first child with the full window, the others with (α, α+1),
 *               re-searched with (α, β) when α < score < β — leaves included.
 *   mtdf        MTD(f) (Plaat): null-window calls of a fail-soft alpha-beta
 *               with memory until the bounds meet, first guess 0 unless given.
 *
 * Counting. `leaves` counts calls of the evaluation, every one, so a leaf a
 * re-search reaches again counts again. MTD(f)'s memory is a hash table keyed
 * by heap number that stores bounds for every node it searched — leaves too —
 * and never forgets within one run, so MTD(f) evaluates a leaf at most once
 * and the leaves it finds in memory are not evaluations. `distinct` (when
 * asked for) counts different leaves evaluated: the number the Knuth–Moore
 * theorem is about. `inner` counts expansions of inner nodes (their children
 * generated), every time.
 *
 * A run may be given a budget of leaf evaluations; past it the search unwinds
 * at once and the result is marked incomplete.
 */
#include <stdbool.h>
#include <stdint.h>

#include "tools/lab_tree.h"

enum { LAB_INF = 1 << 30 }; /* beyond every leaf value; safe to negate and to add 1 */

typedef enum { LAB_MINIMAX, LAB_ALPHABETA, LAB_NEGASCOUT, LAB_PVS, LAB_MTDF, LAB_ALGO_NB } LabAlgo;

typedef struct {
    uint64_t budget;      /* stop after this many leaf evaluations; 0 = no limit */
    bool track_distinct;  /* count different leaves (a hash set of their numbers) */
    int guess;            /* MTD(f)'s first guess */
} LabLimits;

typedef struct {
    int value;            /* the root's value for MAX (the side to move at the root) */
    bool complete;        /* false: the budget ran out and value means nothing */
    uint64_t leaves;      /* leaf evaluations */
    uint64_t distinct;    /* different leaves evaluated (0 unless tracked) */
    uint64_t inner;       /* inner-node expansions */
    uint64_t researches;  /* negascout, pvs: null-window results searched again */
    uint64_t passes;      /* mtdf: null-window alpha-beta calls */
} LabResult;

/* Runs `algo` on the whole tree with a full window. */
LabResult lab_search(const LabTree *tree, LabAlgo algo, const LabLimits *limits);

/* The reference negamax alpha-beta at the root with window (alpha, beta); for
 * checking the bound lemma with windows other than (-inf, inf). */
LabResult lab_alphabeta(const LabTree *tree, int alpha, int beta, const LabLimits *limits);

const char *lab_algo_name(LabAlgo algo);
