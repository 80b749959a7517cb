/* pawns.c — pawn-structure evaluation and its per-thread hash table. */
#include "pawns.h"

#include <stdlib.h>
#include <string.h>

PawnTable *pawn_table_create(void)
{
    return calloc(1, sizeof(PawnTable));
}

void pawn_table_destroy(PawnTable *table)
{
    free(table);
}

void pawn_table_clear(PawnTable *table)
{
    memset(table, 0, sizeof *table);
}

/* What the pawns of one colour are, each feature the set of the pawns that
 * have it, worked out for all of them at once. */
typedef struct {
    Bitboard doubled, isolated, backward, connected, rammed, passed;
} PawnFeatures;

/* The squares strictly in front of (behind) the pieces of b, as colour c sees it. */
static Bitboard front_span(Color c, Bitboard b) { return shift_forward(c, fill_forward(c, b)); }
static Bitboard rear_span(Color c, Bitboard b) { return front_span(color_flip(c), b); }

static PawnFeatures pawn_features(Color c, Bitboard ours, Bitboard theirs)
{
    Color them = color_flip(c);
    Bitboard beside = shift_east(ours) | shift_west(ours);
    Bitboard files = fill_forward(WHITE, fill_forward(BLACK, ours));
    Bitboard their_fronts = theirs | shift_east(theirs) | shift_west(theirs);
    PawnFeatures f;

    /* A friendly pawn in front on the same file. */
    f.doubled = ours & rear_span(c, ours);
    f.isolated = ours & ~(shift_east(files) | shift_west(files));
    /* Blocked head-on: an enemy pawn on the stop square. */
    f.rammed = ours & shift_forward(them, theirs);
    /* Defended by a pawn, or with a neighbour beside it. */
    f.connected = ours & (pawn_attacks_bb(c, ours) | beside);
    /* No enemy pawn in front on its own or a neighbouring file; only the
     * front pawn of a doubled pair counts as passed. */
    f.passed = ours & ~f.doubled & ~rear_span(c, their_fronts);
    /* Behind all its neighbours, so no pawn can ever defend it, and it
     * cannot step up to them because an enemy pawn holds its stop square
     * (stands on it or attacks it). */
    Bitboard level_or_ahead_of_a_neighbour = fill_forward(c, beside);
    Bitboard stop_held = shift_forward(them, pawn_attacks_bb(them, theirs) | theirs);
    f.backward = ours & ~f.isolated & ~level_or_ahead_of_a_neighbour & stop_held;
    return f;
}

static void evaluate_side(const Board *b, Color c, PawnEntry *e, EvalSum *sum)
{
    const EvalWeights *w = &eval_weights;
    Bitboard ours = board_pieces(b, c, PAWN), theirs = board_pieces(b, color_flip(c), PAWN);
    PawnFeatures f = pawn_features(c, ours, theirs);

    eval_add(sum, TERM_PAWNS, c, &w->pawn_doubled, popcount(f.doubled));
    eval_add(sum, TERM_PAWNS, c, &w->pawn_isolated, popcount(f.isolated));
    eval_add(sum, TERM_PAWNS, c, &w->pawn_backward, popcount(f.backward));
    for (Bitboard left = ours; left;) {
        Square s = pop_lsb(&left);
        Bitboard bb = square_bb(s);
        int rank = rank_relative(c, square_rank(s));
        eval_add(sum, TERM_PSQT, c, &w->psqt[PAWN][psqt_index(c, s)], 1);
        if (f.connected & bb)
            eval_add(sum, TERM_PAWNS, c, &w->pawn_connected[rank], 1);
        if (f.rammed & bb)
            eval_add(sum, TERM_PAWNS, c, &w->pawn_ram[rank], 1);
        if (f.passed & bb)
            eval_add(sum, TERM_PASSED, c, &w->passed_pawn[rank], 1);
    }
    e->passed |= f.passed;
    e->attack_span[c] = fill_forward(c, pawn_attacks_bb(c, ours));
}

void pawns_evaluate(const Board *b, PawnEntry *out, EvalTrace *trace)
{
    EvalSum sum = { .score = { 0, 0 }, .trace = trace };
    memset(out, 0, sizeof *out);
    out->key = board_pawn_key(b);
    evaluate_side(b, WHITE, out, &sum);
    evaluate_side(b, BLACK, out, &sum);
    out->score = sum.score[WHITE] - sum.score[BLACK];
}

PawnEntry *pawn_probe(PawnTable *table, const Board *b)
{
    Key key = board_pawn_key(b);
    PawnEntry *e = &table->entries[key & (PAWN_TABLE_SIZE - 1)];
    if (e->key != key)
        pawns_evaluate(b, e, NULL);
    return e;
}
