/* eval.c — the static evaluation and its term-by-term trace (printed by the
 * `eval` sub-command, tools/eval_cmd.c). */
#include "eval.h"

#include <string.h>

/* How much each piece type counts towards the game phase. */
static const int PHASE_WEIGHT[PIECE_TYPE_NB] = { [KNIGHT] = 1, [BISHOP] = 1, [ROOK] = 2, [QUEEN] = 4 };

/* Non-pawn material in "minor pieces" of three units, for the scaling rules. */
static const int SCALE_UNITS[PIECE_TYPE_NB] = { [KNIGHT] = 3, [BISHOP] = 3, [ROOK] = 5, [QUEEN] = 9 };
enum { MINOR_UNITS = 3 };

/* Scale factors (of SCALE_NORMAL) for positions that are hard to win. */
enum {
    SCALE_PAWNLESS_SMALL_EDGE = 16, /* no pawns, at most a minor piece ahead */
    SCALE_TWO_KNIGHTS = 8,          /* two knights cannot force mate; pawns help a little */
    SCALE_OPPOSITE_BISHOPS = 24,    /* only opposite-coloured bishops and pawns */
    SCALE_OPPOSITE_BISHOPS_PIECES = 48,
};

/* King danger turns into a penalty only from this many attackers on. The
 * penalty grows with the square of the danger units in the middlegame (a
 * lone attacker is a nuisance, several together are mortal) and linearly in
 * the endgame; the cap keeps it near a queen's worth. */
enum { KING_ATTACKERS_MIN = 2, KING_DANGER_MAX = 500, KING_DANGER_DIVISOR = 256, KING_DANGER_EG_DIVISOR = 8 };

/* Short for the weights, which nearly every line reads. */
static const EvalWeights *const W = &eval_weights;

/* What the evaluation learns about a position while it goes, shared by the
 * terms that come later (king safety and threats need every attack). */
typedef struct {
    const Board *b;
    PawnEntry *pawns; /* also caches the king terms that hang on the pawns */
    EvalSum sum;
    Bitboard occupied;
    Bitboard attacked[COLOR_NB];
    Bitboard attacked_by[COLOR_NB][PIECE_TYPE_NB];
    Bitboard mobility_area[COLOR_NB];
    Bitboard king_zone[COLOR_NB];
    int king_attackers[COLOR_NB]; /* pieces of colour c attacking the enemy king zone */
    Score king_danger[COLOR_NB];  /* danger units colour c builds against the enemy king */
} EvalInfo;

static void note_attacks(EvalInfo *ei, Color c, PieceType t, Bitboard attacks)
{
    ei->attacked[c] |= attacks;
    ei->attacked_by[c][t] |= attacks;
}

/* The pawns' and the king's attacks of colour c, and its king's zone. */
static void init_side(EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    Bitboard forward = shift_forward(c, board_pieces(b, c, PAWN));
    Square king = board_king(b, c);
    ei->attacked_by[c][PAWN] = shift_east(forward) | shift_west(forward);
    ei->attacked_by[c][KING] = king_attacks[king];
    ei->attacked[c] = ei->attacked_by[c][PAWN] | king_attacks[king];
    /* The king's square and its neighbours, and one more rank towards the enemy. */
    Bitboard ring = king_attacks[king] | square_bb(king);
    ei->king_zone[c] = ring | shift_forward(c, ring);
}

static Bitboard mobility_area(const EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    return ~(board_pieces(b, c, PAWN) | board_pieces(b, c, KING) | ei->attacked_by[color_flip(c)][PAWN]);
}

/* Each colour is named by a constant (here and in evaluate_white), never
 * by a loop, so that in the flattened evaluate() every colour test folds. */
static void init_info(EvalInfo *ei, const Board *b, PawnEntry *pawns, EvalTrace *trace)
{
    /* Field by field rather than a memset of the whole: init_side() and
     * mobility_area() write the rest, and this runs at every node. */
    ei->b = b;
    ei->pawns = pawns;
    ei->sum = (EvalSum){ .score = { 0, 0 }, .trace = trace };
    ei->occupied = board_occupied(b);
    for (PieceType t = KNIGHT; t <= QUEEN; t++)
        ei->attacked_by[WHITE][t] = ei->attacked_by[BLACK][t] = 0;
    ei->king_attackers[WHITE] = ei->king_attackers[BLACK] = 0;
    ei->king_danger[WHITE] = ei->king_danger[BLACK] = 0;
    init_side(ei, WHITE);
    init_side(ei, BLACK);
    ei->mobility_area[WHITE] = mobility_area(ei, WHITE);
    ei->mobility_area[BLACK] = mobility_area(ei, BLACK);
}

/* ---- Material and development ------------------------------------------ */

static void evaluate_material(EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    for (PieceType t = PAWN; t <= QUEEN; t++)
        eval_add(&ei->sum, TERM_MATERIAL, c, &W->material[t], popcount(board_pieces(b, c, t)));
    Bitboard bishops = board_pieces(b, c, BISHOP);
    if ((bishops & DARK_SQUARES_BB) && (bishops & ~DARK_SQUARES_BB))
        eval_add(&ei->sum, TERM_MATERIAL, c, &W->bishop_pair, 1);
}

/* Development: minor pieces out, keep the central pawns free to advance.
 * They count in the middlegame only. */
static void evaluate_development(EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    Bitboard back_rank = rank_bb(rank_relative(c, 0));
    Bitboard minors = board_pieces(b, c, KNIGHT) | board_pieces(b, c, BISHOP);
    eval_add(&ei->sum, TERM_DEVELOPMENT, c, &W->minor_on_back_rank, popcount(minors & back_rank));
    /* The castling terms are the king's: see evaluate_king_placement(). */

    Bitboard center_start = rank_bb(rank_relative(c, 1)) & (file_bb(3) | file_bb(4));
    Bitboard blocked = board_pieces(b, c, PAWN) & center_start & shift_forward(color_flip(c), ei->occupied);
    eval_add(&ei->sum, TERM_DEVELOPMENT, c, &W->blocked_center_pawn, popcount(blocked));
}

/* ---- Pieces ------------------------------------------------------------- */

static const Score *mobility_weight(PieceType t, int squares)
{
    switch (t) {
    case KNIGHT: return &W->knight_mobility[squares];
    case BISHOP: return &W->bishop_mobility[squares];
    case ROOK: return &W->rook_mobility[squares];
    default: return &W->queen_mobility[squares];
    }
}

/* Attacks as the evaluation sees them: a bishop looks through its own
 * queen, a rook through its own rooks and queen, so that a battery counts
 * as one long piece. */
static Bitboard piece_attacks_xray(const EvalInfo *ei, Color c, PieceType t, Square s)
{
    const Board *b = ei->b;
    Bitboard queens = board_pieces(b, c, QUEEN);
    switch (t) {
    case KNIGHT: return knight_attacks[s];
    case BISHOP: return bishop_attacks(s, ei->occupied ^ queens);
    case ROOK: return rook_attacks(s, ei->occupied ^ queens ^ board_pieces(b, c, ROOK));
    default: return queen_attacks(s, ei->occupied);
    }
}

/* A square on the fourth to sixth rank, defended by a pawn, that no enemy
 * pawn can ever attack: a piece there can only be exchanged, never chased. */
static bool is_outpost(const EvalInfo *ei, Color c, Square s)
{
    int rank = rank_relative(c, square_rank(s));
    if (rank < 3 || rank > 5)
        return false;
    Bitboard supported = ei->attacked_by[c][PAWN];
    Bitboard chased = ei->pawns->attack_span[color_flip(c)];
    return (supported & ~chased & square_bb(s)) != 0;
}

/* A bishop hemmed in by its own pawns on its own colour. */
static void evaluate_bad_bishop(EvalInfo *ei, Color c, Square s)
{
    Bitboard same_colour = (square_bb(s) & DARK_SQUARES_BB) ? DARK_SQUARES_BB : ~DARK_SQUARES_BB;
    Bitboard pawns = board_pieces(ei->b, c, PAWN) & same_colour;
    Bitboard blocked = pawns & shift_forward(color_flip(c), ei->occupied);
    eval_add(&ei->sum, TERM_PIECES, c, &W->bad_bishop_pawn, popcount(pawns));
    eval_add(&ei->sum, TERM_PIECES, c, &W->bad_bishop_blocked, popcount(blocked));
}

static void evaluate_rook(EvalInfo *ei, Color c, Square s)
{
    const Board *b = ei->b;
    Color them = color_flip(c);
    Bitboard file = file_bb(square_file(s));
    if (!(board_pieces(b, c, PAWN) & file))
        eval_add(&ei->sum, TERM_PIECES, c,
                 board_pieces(b, them, PAWN) & file ? &W->rook_semi_open_file : &W->rook_open_file, 1);
    /* The seventh rank matters when it holds pawns or cuts off the king. */
    if (rank_relative(c, square_rank(s)) == 6
        && ((board_pieces(b, them, PAWN) & rank_bb(square_rank(s)))
            || rank_relative(c, square_rank(board_king(b, them))) == 7))
        eval_add(&ei->sum, TERM_PIECES, c, &W->rook_on_seventh, 1);
}

/* Square, mobility, king attack and the type's own features of every piece
 * of type t; also fills the attack maps that later terms read. */
static void evaluate_pieces(EvalInfo *ei, Color c, PieceType t)
{
    const Board *b = ei->b;
    Color them = color_flip(c);
    /* The tropism's count, 7 - distance a piece, summed over the pieces:
     * one multiplication. The distances come from the enemy king's row of
     * the symmetric table, whose base stays in a register through the loop. */
    const int *distance_to_king = square_distance[board_king(b, them)];
    Bitboard pieces = board_pieces(b, c, t);
    int closeness = 7 * popcount(pieces);
    while (pieces) {
        Square s = pop_lsb(&pieces);
        Bitboard attacks = piece_attacks_xray(ei, c, t, s);
        note_attacks(ei, c, t, attacks);

        eval_add(&ei->sum, TERM_PSQT, c, &W->psqt[t][psqt_index(c, s)], 1);
        eval_add(&ei->sum, TERM_MOBILITY, c, mobility_weight(t, popcount(attacks & ei->mobility_area[c])), 1);
        closeness -= distance_to_king[s];
        Bitboard zone_hits = attacks & ei->king_zone[them];
        if (zone_hits) {
            ei->king_attackers[c]++;
            ei->king_danger[c] += W->king_attacker[t] + W->king_zone_attack * popcount(zone_hits);
        }

        if (t == KNIGHT) {
            if (square_file(s) == 0 || square_file(s) == 7)
                eval_add(&ei->sum, TERM_PIECES, c, &W->knight_on_rim, 1);
            if (is_outpost(ei, c, s))
                eval_add(&ei->sum, TERM_PIECES, c, &W->knight_outpost, 1);
        } else if (t == BISHOP) {
            if (is_outpost(ei, c, s))
                eval_add(&ei->sum, TERM_PIECES, c, &W->bishop_outpost, 1);
            evaluate_bad_bishop(ei, c, s);
        } else if (t == ROOK)
            evaluate_rook(ei, c, s);
    }
    eval_add(&ei->sum, TERM_KING_SAFETY, c, &W->king_tropism[t], closeness);
}

/* ---- King safety -------------------------------------------------------- */

/* The pawn of `pawns` nearest to colour c's back rank. */
static Square nearest_pawn(Color c, Bitboard pawns)
{
    return c == WHITE ? lsb(pawns) : msb(pawns);
}

/* Shelter and storm on the three files around a king on k. */
static void add_shelter(const Board *b, Color c, Square k, EvalSum *sum)
{
    Color them = color_flip(c);
    Bitboard ahead = forward_ranks_bb(c, square_rank(k));
    Bitboard ours = board_pieces(b, c, PAWN) & ahead, theirs = board_pieces(b, them, PAWN) & ahead;
    int center = square_file(k) < 1 ? 1 : square_file(k) > 6 ? 6 : square_file(k);
    for (int f = center - 1; f <= center + 1; f++) {
        Bitboard own = ours & file_bb(f), enemy = theirs & file_bb(f);
        int own_rank = own ? rank_relative(c, square_rank(nearest_pawn(c, own))) : 0;
        int enemy_rank = enemy ? rank_relative(c, square_rank(nearest_pawn(c, enemy))) : 0;
        bool blocked = own_rank && enemy_rank == own_rank + 1;
        eval_add(sum, TERM_KING_SAFETY, c, &W->king_shelter[f == square_file(k)][own_rank], 1);
        eval_add(sum, TERM_KING_SAFETY, c, &W->king_storm[blocked][enemy_rank], 1);
    }
}

static Score shelter_score(const Board *b, Color c, Square k)
{
    EvalSum scratch = { .score = { 0, 0 }, .trace = NULL };
    add_shelter(b, c, k, &scratch);
    return scratch.score[c];
}

/* A king that may still castle is judged by the better of its shelters:
 * where it stands, or where castling would take it. */
static void consider_castled_shelter(const Board *b, Color c, Square castled, Score *best, Square *best_square)
{
    Score value = shelter_score(b, c, castled);
    if (score_mg(value) > score_mg(*best)) {
        *best = value;
        *best_square = castled;
    }
}

/* Each candidate shelter is worked out once; a trace records the chosen
 * one's terms again. */
static void add_best_shelter(const Board *b, Color c, int rights, EvalSum *sum)
{
    Square king = board_king(b, c), best_square = king;
    Score best = shelter_score(b, c, king);
    if (rights & (c == WHITE ? WHITE_OO : BLACK_OO))
        consider_castled_shelter(b, c, square_relative(c, G1), &best, &best_square);
    if (rights & (c == WHITE ? WHITE_OOO : BLACK_OOO))
        consider_castled_shelter(b, c, square_relative(c, C1), &best, &best_square);
    if (sum->trace)
        add_shelter(b, c, best_square, sum);
    else
        sum->score[c] += best;
}

/* Castle early: rights still held, and a king stuck in the centre without them. */
static void add_castling(const Board *b, Color c, int rights, EvalSum *sum)
{
    eval_add(sum, TERM_DEVELOPMENT, c, &W->castling_right, popcount((Bitboard)rights));
    int king_file = square_file(board_king(b, c));
    if (!rights && king_file >= 3 && king_file <= 5)
        eval_add(sum, TERM_DEVELOPMENT, c, &W->king_lost_castling, 1);
}

/* Danger units from the attacks on c's king zone and the safe checks the
 * enemy has; the middlegame penalty grows with their square. */
static void evaluate_king_danger(EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    Color them = color_flip(c);
    /* Too few attackers make no penalty: only a trace needs the units then. */
    if (ei->king_attackers[them] < KING_ATTACKERS_MIN && !ei->sum.trace)
        return;
    Square king = board_king(b, c);
    Score danger = ei->king_danger[them];

    Bitboard defended = ei->attacked_by[c][PAWN] | ei->attacked_by[c][KNIGHT] | ei->attacked_by[c][BISHOP]
                      | ei->attacked_by[c][ROOK] | ei->attacked_by[c][QUEEN];
    danger += W->king_weak_square * popcount(ei->king_zone[c] & ei->attacked[them] & ~defended);

    Bitboard safe = ~ei->attacked[c] & ~b->by_color[them];
    Bitboard bishop_rays = bishop_attacks(king, ei->occupied), rook_rays = rook_attacks(king, ei->occupied);
    if (knight_attacks[king] & ei->attacked_by[them][KNIGHT] & safe)
        danger += W->king_safe_check[KNIGHT];
    if (bishop_rays & ei->attacked_by[them][BISHOP] & safe)
        danger += W->king_safe_check[BISHOP];
    if (rook_rays & ei->attacked_by[them][ROOK] & safe)
        danger += W->king_safe_check[ROOK];
    if ((bishop_rays | rook_rays) & ei->attacked_by[them][QUEEN] & safe)
        danger += W->king_safe_check[QUEEN];
    if (!board_pieces(b, them, QUEEN))
        danger += W->king_no_queen;

    if (ei->sum.trace)
        ei->sum.trace->king_danger[c] = danger;
    if (ei->king_attackers[them] < KING_ATTACKERS_MIN)
        return;
    int mg = score_mg(danger), eg = score_eg(danger);
    mg = mg < 0 ? 0 : mg > KING_DANGER_MAX ? KING_DANGER_MAX : mg;
    eg = eg < 0 ? 0 : eg;
    Score penalty = S(-(mg * mg / KING_DANGER_DIVISOR), -(eg / KING_DANGER_EG_DIVISOR));
    eval_add_value(&ei->sum, TERM_KING_SAFETY, c, penalty);
}

/* In the endgame the king should walk towards the pawns. The rings around
 * the king are searched outwards, so a pawn close by ends the search at
 * once; no pawn stands on the king's square, so the nearest is 1 to 7 away. */
static void add_king_activity(const Board *b, Color c, EvalSum *sum)
{
    Bitboard pawns = b->by_type[PAWN];
    if (!pawns)
        return;
    const Bitboard *rings = distance_ring_bb[board_king(b, c)];
    int nearest = 1;
    while (nearest < 7 && !(pawns & rings[nearest]))
        nearest++;
    eval_add(sum, TERM_KING_ACTIVITY, c, &W->king_pawn_distance, nearest);
}

/* Every king term that depends on the pawns, the king's square and its
 * castling rights alone, which in a search change far less often than the
 * pieces: their sum is kept in the pawn entry, tagged 1 + square + 64 x
 * rights (0: none yet). A trace never reads it, so that each term is
 * recorded under its own category. */
static void evaluate_king_placement(EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    Square king = board_king(b, c);
    int rights = board_state(b)->castling & (c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO);
    uint16_t tag = (uint16_t)(1 + king + 64 * rights);
    if (ei->pawns->king_tag[c] == tag && !ei->sum.trace) {
        ei->sum.score[c] += ei->pawns->king[c];
        return;
    }
    EvalSum placement = { .score = { 0, 0 }, .trace = ei->sum.trace };
    eval_add(&placement, TERM_PSQT, c, &W->psqt[KING][psqt_index(c, king)], 1);
    add_castling(b, c, rights, &placement);
    add_best_shelter(b, c, rights, &placement);
    add_king_activity(b, c, &placement);
    ei->sum.score[c] += placement.score[c];
    ei->pawns->king_tag[c] = tag;
    ei->pawns->king[c] = placement.score[c];
}

static void evaluate_king(EvalInfo *ei, Color c)
{
    evaluate_king_placement(ei, c);
    evaluate_king_danger(ei, c);
}

/* ---- Passed pawns ------------------------------------------------------- */

static int non_pawn_units(const Board *b, Color c)
{
    int units = 0;
    for (PieceType t = KNIGHT; t <= QUEEN; t++)
        units += SCALE_UNITS[t] * popcount(board_pieces(b, c, t));
    return units;
}

/* The rule of the square: with no enemy pieces left, can the enemy king
 * still catch this pawn on a free path? */
static bool is_unstoppable(const EvalInfo *ei, Color c, Square s, int rank)
{
    const Board *b = ei->b;
    Color them = color_flip(c);
    if (board_has_non_pawn_material(b, them) || (forward_file_bb(c, s) & ei->occupied))
        return false;
    Square promotion = make_square(square_file(s), rank_relative(c, 7));
    int moves = 7 - rank - (rank == 1); /* the first step may be a double step */
    int king_moves = square_distance[board_king(b, them)][promotion] - (b->side == them);
    return king_moves > moves;
}

static void evaluate_passed(EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    Color them = color_flip(c);
    bool unstoppable = false;
    for (Bitboard passers = ei->pawns->passed & b->by_color[c]; passers;) {
        Square s = pop_lsb(&passers);
        int rank = rank_relative(c, square_rank(s));
        Square stop = (Square)(s + pawn_push(c));
        if (!(square_bb(stop) & (ei->occupied | ei->attacked[them])))
            eval_add(&ei->sum, TERM_PASSED, c, &W->passer_free[rank], 1);

        /* Kings near the stop square matter more the further the pawn is. */
        int weight = rank > 2 ? rank - 2 : 0;
        eval_add(&ei->sum, TERM_PASSED, c, &W->passer_own_king_distance,
                 weight * square_distance[board_king(b, c)][stop]);
        eval_add(&ei->sum, TERM_PASSED, c, &W->passer_enemy_king_distance,
                 weight * square_distance[board_king(b, them)][stop]);

        /* A rook behind a passed pawn: ours pushes it, theirs holds it.
         * The rook's rays only where a rook stands on the file behind. */
        Bitboard file_behind = forward_file_bb(them, s);
        if (file_behind & b->by_type[ROOK]) {
            Bitboard behind = rook_attacks(s, ei->occupied) & file_behind;
            if (behind & board_pieces(b, c, ROOK))
                eval_add(&ei->sum, TERM_PASSED, c, &W->rook_behind_passer, 1);
            if (behind & board_pieces(b, them, ROOK))
                eval_add(&ei->sum, TERM_PASSED, them, &W->rook_behind_enemy_passer, 1);
        }

        unstoppable = unstoppable || is_unstoppable(ei, c, s, rank);
    }
    if (unstoppable)
        eval_add(&ei->sum, TERM_PASSED, c, &W->passer_unstoppable, 1);
}

/* ---- Threats ------------------------------------------------------------ */

/* Adds `weights[type]` for each piece in `targets`. */
static void add_per_target(EvalInfo *ei, Color c, const Score *weights, Bitboard targets)
{
    while (targets) {
        Square s = pop_lsb(&targets);
        eval_add(&ei->sum, TERM_THREATS, c, &weights[piece_type(board_piece_on(ei->b, s))], 1);
    }
}

/* Pieces of the enemy attacked by something cheaper, or attacked and not
 * defended at all. */
static void evaluate_threats(EvalInfo *ei, Color c)
{
    const Board *b = ei->b;
    Color them = color_flip(c);
    Bitboard enemies = b->by_color[them] & ~b->by_type[KING];
    Bitboard pieces = enemies & ~b->by_type[PAWN];
    Bitboard undefended = enemies & ~ei->attacked[them];
    Bitboard majors = enemies & (b->by_type[ROOK] | b->by_type[QUEEN]);

    eval_add(&ei->sum, TERM_THREATS, c, &W->threat_by_pawn, popcount(pieces & ei->attacked_by[c][PAWN]));
    Bitboard by_minor = ei->attacked_by[c][KNIGHT] | ei->attacked_by[c][BISHOP];
    add_per_target(ei, c, W->threat_by_minor, (majors | undefended) & by_minor);
    Bitboard queens = enemies & b->by_type[QUEEN];
    add_per_target(ei, c, W->threat_by_rook, (queens | undefended) & ei->attacked_by[c][ROOK]);
}

/* ---- Phase, scaling and the whole -------------------------------------- */

static int game_phase(const Board *b)
{
    int phase = 0;
    for (PieceType t = KNIGHT; t <= QUEEN; t++)
        phase += PHASE_WEIGHT[t] * popcount(b->by_type[t]);
    return phase < PHASE_MAX ? phase : PHASE_MAX;
}

static bool opposite_bishops(const Board *b)
{
    Bitboard white = board_pieces(b, WHITE, BISHOP), black = board_pieces(b, BLACK, BISHOP);
    return popcount(white) == 1 && popcount(black) == 1
        && !(white & DARK_SQUARES_BB) != !(black & DARK_SQUARES_BB);
}

/* How winnable the position is for `strong`, the side ahead: SCALE_NORMAL,
 * or less where its extra material is not enough (see eval.h). */
static int scale_factor(const Board *b, Color strong)
{
    /* The common case first: with pawns, only opposite bishops scale. */
    if (board_pieces(b, strong, PAWN) && !opposite_bishops(b))
        return SCALE_NORMAL;
    Color weak = color_flip(strong);
    int strong_units = non_pawn_units(b, strong), weak_units = non_pawn_units(b, weak);
    if (!board_pieces(b, strong, PAWN)) {
        if (strong_units <= MINOR_UNITS)
            return 0;
        if (strong_units == 2 * MINOR_UNITS && popcount(board_pieces(b, strong, KNIGHT)) == 2)
            return board_pieces(b, weak, PAWN) ? SCALE_TWO_KNIGHTS : 0;
        if (strong_units - weak_units <= MINOR_UNITS)
            return SCALE_PAWNLESS_SMALL_EDGE;
    }
    if (opposite_bishops(b))
        return strong_units == MINOR_UNITS && weak_units == MINOR_UNITS ? SCALE_OPPOSITE_BISHOPS
                                                                         : SCALE_OPPOSITE_BISHOPS_PIECES;
    return SCALE_NORMAL;
}

/* Material, development and every piece of colour c. One call per type,
 * so that each inlined copy knows its type and keeps only its own attacks
 * and features. */
static void evaluate_army(EvalInfo *ei, Color c)
{
    evaluate_material(ei, c);
    evaluate_development(ei, c);
    evaluate_pieces(ei, c, KNIGHT);
    evaluate_pieces(ei, c, BISHOP);
    evaluate_pieces(ei, c, ROOK);
    evaluate_pieces(ei, c, QUEEN);
}

/* The terms that read both colours' attacks. */
static void evaluate_king_passed_threats(EvalInfo *ei, Color c)
{
    evaluate_king(ei, c);
    evaluate_passed(ei, c);
    evaluate_threats(ei, c);
}

/* The evaluation from White's side, with the pawn entry already found. */
static int evaluate_white(const Board *b, PawnEntry *pawns, EvalTrace *trace)
{
    EvalInfo ei;
    init_info(&ei, b, pawns, trace);
    ei.sum.score[WHITE] += pawns->score; /* already White minus Black; traced when computed */

    /* The pieces of both colours first: the king and threat terms read
     * every attack. */
    evaluate_army(&ei, WHITE);
    evaluate_army(&ei, BLACK);
    evaluate_king_passed_threats(&ei, WHITE);
    evaluate_king_passed_threats(&ei, BLACK);
    eval_add(&ei.sum, TERM_TEMPO, b->side, &W->tempo, 1);

    Score total = ei.sum.score[WHITE] - ei.sum.score[BLACK];
    int mg = score_mg(total), eg = score_eg(total), phase = game_phase(b);
    int blended = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    int scale = scale_factor(b, blended > 0 ? WHITE : BLACK);
    int result = blended * scale / SCALE_NORMAL;
    result = result > EVAL_MAX ? EVAL_MAX : result < -EVAL_MAX ? -EVAL_MAX : result;
    if (trace) {
        trace->phase = phase;
        trace->scale = scale;
        trace->mg = mg;
        trace->eg = eg;
        trace->white_score = result;
    }
    return result;
}

/* Flattened: everything it calls is inlined into it, so the search's
 * evaluation knows that it records no trace, and every term's test for one
 * goes; evaluate_traced() keeps the general code. */
__attribute__((flatten)) int evaluate(const Board *b, PawnTable *pawns)
{
    int white = evaluate_white(b, pawn_probe(pawns, b), NULL);
    return b->side == WHITE ? white : -white;
}

int evaluate_traced(const Board *b, EvalTrace *trace)
{
    PawnEntry entry;
    memset(trace, 0, sizeof *trace);
    pawns_evaluate(b, &entry, trace);
    int white = evaluate_white(b, &entry, trace);
    return b->side == WHITE ? white : -white;
}

/* ---- Printing ----------------------------------------------------------- */

static void print_pair(FILE *out, Score s)
{
    fprintf(out, "  %6d %6d", score_mg(s), score_eg(s));
}

void evaluate_trace(const Board *b, FILE *out)
{
    EvalTrace trace;
    int score = evaluate_traced(b, &trace);
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    fprintf(out, "%s\n\n", fen);
    fprintf(out, "%-16s  %13s  %13s  %13s\n", "term", "White", "Black", "White-Black");
    fprintf(out, "%-16s  %6s %6s  %6s %6s  %6s %6s\n", "", "mg", "eg", "mg", "eg", "mg", "eg");
    Score sum[COLOR_NB] = { 0, 0 };
    for (int t = 0; t < TERM_NB; t++) {
        fprintf(out, "%-16s", eval_term_names[t]);
        print_pair(out, trace.term[t][WHITE]);
        print_pair(out, trace.term[t][BLACK]);
        print_pair(out, trace.term[t][WHITE] - trace.term[t][BLACK]);
        fputc('\n', out);
        sum[WHITE] += trace.term[t][WHITE];
        sum[BLACK] += trace.term[t][BLACK];
    }
    fprintf(out, "%-16s", "total");
    print_pair(out, sum[WHITE]);
    print_pair(out, sum[BLACK]);
    print_pair(out, sum[WHITE] - sum[BLACK]);
    fprintf(out, "\n\nking danger units (mg eg): White's king %d %d, Black's king %d %d\n",
            score_mg(trace.king_danger[WHITE]), score_eg(trace.king_danger[WHITE]),
            score_mg(trace.king_danger[BLACK]), score_eg(trace.king_danger[BLACK]));
    fprintf(out, "phase %d/%d, scale %d/%d\n", trace.phase, PHASE_MAX, trace.scale, SCALE_NORMAL);
    fprintf(out, "evaluation: %+d cp for White, %+d cp for the side to move (%s)\n", trace.white_score, score,
            b->side == WHITE ? "White" : "Black");
}
