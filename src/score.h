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
};

static inline int mated_in(int ply) { return -MATE + ply; }
static inline int mate_in(int ply) { return MATE - ply; }
static inline int is_mate_score(int score) { return score >= MATE_IN_MAX || score <= -MATE_IN_MAX; }
