/* tune_extract.c — labelled quiet positions from a PGN file, and reading
 * them back (see tune.h).
 *
 * The tuner judges a position by its static evaluation, which knows nothing
 * of a capture about to happen: a position in the middle of an exchange
 * would teach it that a piece down is fine. So only quiet positions are
 * kept: the side to move is not in check and has no promotion and no
 * capture that wins material by static exchange (what a quiescence search
 * would have played).
 */
#include "tools/tune.h"

#include <stdlib.h>
#include <string.h>

#include "games/pgn.h"
#include "movegen.h"
#include "see.h"

bool tune_position_is_quiet(const Board *b)
{
    if (board_in_check(b))
        return false;
    Move noisy[MAX_MOVES];
    int count = generate_moves(b, GEN_NOISY, noisy);
    for (int i = 0; i < count; i++)
        if (move_kind(noisy[i]) == MOVE_PROMOTION || see_ge(b, noisy[i], 1))
            return false;
    MoveList all;
    generate_legal(b, &all);
    return all.count > 0; /* stalemate is not a position to learn from */
}

/* White's score from a result marker, or a negative number if undecided. */
static double result_value(const char *result)
{
    if (strcmp(result, "1-0") == 0)
        return 1.0;
    if (strcmp(result, "0-1") == 0)
        return 0.0;
    return strcmp(result, "1/2-1/2") == 0 ? 0.5 : -1.0;
}

static void write_position(FILE *out, const Board *b, double result)
{
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    fprintf(out, "%s [%.1f]\n", fen, result);
}

/* The quiet positions of one game, every o->every-th after the opening. */
static void extract_game(const PgnGame *g, Board *b, double result, FILE *out, const TuneExtractOptions *o,
                         TuneExtractStats *s)
{
    char why[128];
    if (!board_set_fen(b, g->fen, why, sizeof why))
        return;
    int candidates = 0;
    long before = s->positions;
    for (int ply = 0; ply <= g->move_count; ply++) {
        /* Past the fifty-move rule the game is a draw whatever the position says. */
        if (ply >= o->skip && board_state(b)->rule50 < 100) {
            if (!tune_position_is_quiet(b))
                s->noisy++;
            else if (candidates++ % o->every == 0) {
                write_position(out, b, result);
                s->positions++;
            }
        }
        if (ply == g->move_count)
            break;
        board_make_move(b, g->moves[ply]);
        board_trim_history(b);
    }
    s->used_games += s->positions > before;
}

bool tune_extract(const char *pgn_path, FILE *out, const TuneExtractOptions *o, TuneExtractStats *s,
                  char *error, size_t error_size)
{
    memset(s, 0, sizeof *s);
    PgnReader *r = pgn_open(pgn_path, error, error_size);
    if (!r)
        return false;
    Board *b = malloc(sizeof *b);
    if (!b) {
        pgn_close(r);
        snprintf(error, error_size, "out of memory");
        return false;
    }
    const PgnGame *g;
    PgnError bad;
    PgnStatus status;
    while ((status = pgn_next(r, &g, &bad)) != PGN_END) {
        s->games++;
        if (status == PGN_BAD_GAME) {
            s->bad_games++;
            continue;
        }
        double result = result_value(g->result);
        if (result >= 0 && !g->truncated)
            extract_game(g, b, result, out, o, s);
    }
    free(b);
    pgn_close(r);
    return true;
}

bool tune_parse_line(const char *line, Board *b, double *result)
{
    const char *open = strrchr(line, '[');
    char fen[256], *end;
    if (!open || open == line || (size_t)(open - line) >= sizeof fen)
        return false;
    memcpy(fen, line, (size_t)(open - line));
    fen[open - line] = '\0';
    double value = strtod(open + 1, &end);
    if (end == open + 1 || *end != ']' || (value != 0 && value != 0.5 && value != 1))
        return false;
    char why[128];
    if (!board_set_fen(b, fen, why, sizeof why))
        return false;
    *result = value;
    return true;
}
