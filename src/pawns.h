#pragma once
/*
 * pawns.h — pawn structure: its evaluation and the pawn hash table that
 * caches it.
 *
 * Pawns move rarely and never back, so in a search the same pawn skeleton
 * is evaluated again and again. Everything that depends on the pawns alone
 * — doubled, isolated, backward, connected, rammed and passed pawns, the
 * pawns' piece-square values, and the bitboards the rest of the evaluation
 * asks for (passed pawns, squares enemy pawns can ever attack) — is computed
 * once per skeleton and stored under the position's pawn key (the XOR of
 * the Zobrist keys of its pawns, kept in BoardState by make/unmake).
 *
 * The table is direct-mapped and always replaces. Each search thread owns
 * one (no locks): embed a PawnTable in the thread's own heap-allocated
 * struct, or get one from pawn_table_create(). A zeroed table is a valid
 * empty table: its key 0 belongs to the pawnless skeleton, whose correct
 * entry is all zeros.
 */
#include "board.h"
#include "evalweights.h"

enum { PAWN_TABLE_BITS = 14, PAWN_TABLE_SIZE = 1 << PAWN_TABLE_BITS };

typedef struct {
    Key key;
    Score score;                     /* White minus Black */
    Bitboard passed;                 /* passed pawns of both colours */
    Bitboard attack_span[COLOR_NB];  /* squares each side's pawns attack now or after advancing */
    /* The king's shelter, square and castling terms depend on the pawns,
     * the king's square and its castling rights only, so the evaluation
     * keeps the last sum it worked out here (eval.c:
     * evaluate_king_placement). */
    uint16_t king_tag[COLOR_NB];
    Score king[COLOR_NB];
} PawnEntry;

typedef struct {
    PawnEntry entries[PAWN_TABLE_SIZE];
} PawnTable;

PawnTable *pawn_table_create(void); /* zeroed; NULL if out of memory */
void pawn_table_destroy(PawnTable *table);
void pawn_table_clear(PawnTable *table);

/* The entry for b's pawns, computed and stored on a miss. */
PawnEntry *pawn_probe(PawnTable *table, const Board *b);

/* Computes an entry without the table; records every term in `trace` if
 * it is not NULL. */
void pawns_evaluate(const Board *b, PawnEntry *out, EvalTrace *trace);

/* ---- Pawn geometry (also used by the evaluation) ----------------------- */

/* Ranks strictly in front of `rank` as seen by colour c. */
static inline Bitboard forward_ranks_bb(Color c, int rank)
{
    if (c == WHITE)
        return rank >= 7 ? 0 : ~0ULL << (8 * (rank + 1));
    return (1ULL << (8 * rank)) - 1;
}

static inline Bitboard adjacent_files_bb(int file)
{
    return shift_east(file_bb(file)) | shift_west(file_bb(file));
}

/* The squares in front of s on its own file. */
static inline Bitboard forward_file_bb(Color c, Square s)
{
    return forward_ranks_bb(c, square_rank(s)) & file_bb(square_file(s));
}

/* Every square a pawn of colour c in b could reach by moving forward. */
static inline Bitboard fill_forward(Color c, Bitboard b)
{
    if (c == WHITE) {
        b |= b << 8;
        b |= b << 16;
        b |= b << 32;
    } else {
        b |= b >> 8;
        b |= b >> 16;
        b |= b >> 32;
    }
    return b;
}
