#pragma once
/*
 * score.h — the scale of search scores. Centipawns for ordinary positions;
 * mate is MATE minus the distance in plies from the root, so a shorter
 * mate scores higher and the distance can be recovered for output.
 */
enum {
    SCORE_DRAW = 0,
    SCORE_INFINITE = 32001,
    SCORE_NONE = 32002,
    MATE = 32000,
    MATE_IN_MAX = MATE - 2 * 128,     /* any score beyond this is a mate */
    SCORE_KNOWN_WIN = 10000,
    /* A tablebase win, less the plies to the probed position: below every
     * mate score, above every evaluation. */
    SCORE_TB_WIN = MATE_IN_MAX - 128 - 1,
    TB_WIN_IN_MAX = SCORE_TB_WIN - 128,
};

static inline int mated_in(int ply) { return -MATE + ply; }
static inline int mate_in(int ply) { return MATE - ply; }
static inline int is_mate_score(int score) { return score >= MATE_IN_MAX || score <= -MATE_IN_MAX; }
/* Mate and tablebase scores depend on the distance from the root. */
static inline int is_decisive_score(int score) { return score >= TB_WIN_IN_MAX || score <= -TB_WIN_IN_MAX; }
