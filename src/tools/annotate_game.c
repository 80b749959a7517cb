/* annotate_game.c — one game written with its annotations (see annotate_game.h). */
#include "tools/annotate_game.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "games/pgn_text.h"
#include "movegen.h"
#include "notation.h"
#include "score.h"
#include "see.h"

/* A reply that takes more than this (net of what the move itself took) is
 * worth a word: less is a pawn or a positional matter. */
enum { MATERIAL_NOTE_MIN = 200, SEE_SEARCH_BOUND = 2048 };

/* Tags this command writes itself: one of the input's is dropped. */
static const char *const OWN_TAGS[] = { "Annotator", "WhiteAccuracy", "BlackAccuracy", "WhiteACPL", "BlackACPL",
                                        "SetUp", "FEN" };

/* ---- what a move threw away ------------------------------------------------ */

/* The static exchange's value of a move: the highest threshold see_ge passes. */
static int see_value(const Board *b, Move m)
{
    int low = -SEE_SEARCH_BOUND, high = SEE_SEARCH_BOUND; /* see_ge(low) holds, see_ge(high) does not */
    while (high - low > 1) {
        int middle = low + (high - low) / 2;
        if (see_ge(b, m, middle))
            low = middle;
        else
            high = middle;
    }
    return low;
}

static const char *piece_with_article(PieceType t)
{
    static const char *const NAMES[PIECE_TYPE_NB] = { "a pawn", "a knight", "a bishop",
                                                      "a rook", "the queen", "the king" };
    return NAMES[t];
}

/* "loses a knight", "loses the queen for a pawn": the reply takes a piece
 * and keeps it (static exchange), for more than the move itself took.
 * `after` is the position after the move, `taken` what the move took
 * (-1: nothing). Empty when the engine cannot say so. */
static void describe_material_loss(const Board *after, Move reply, int taken, char *out, size_t size)
{
    out[0] = '\0';
    if (reply == MOVE_NONE || move_kind(reply) != MOVE_NORMAL || board_piece_on(after, move_to(reply)) == NO_PIECE)
        return;
    PieceType lost = piece_type(board_piece_on(after, move_to(reply)));
    int gain = see_value(after, reply), taken_value = taken >= 0 ? SEE_VALUES[taken] : 0;
    if (lost == PAWN || gain < SEE_VALUES[lost] - SEE_VALUES[PAWN] || gain - taken_value < MATERIAL_NOTE_MIN)
        return;
    snprintf(out, size, "loses %s%s%s", piece_with_article(lost), taken >= 0 ? " for " : "",
             taken >= 0 ? piece_with_article((PieceType)taken) : "");
}

/* What was thrown away, in a few words, or "". */
static void describe_loss(const Judgement *j, const PositionVerdict *before, const PositionVerdict *after,
                          const Board *board_after, int taken, char *out, size_t size)
{
    if (j->mate_missed && j->mate_allowed)
        snprintf(out, size, "mate in %d was missed, and it walks into mate in %d", abs(mate_in_moves(before->score)),
                 abs(mate_in_moves(after->score)));
    else if (j->mate_missed)
        snprintf(out, size, "mate in %d was missed", abs(mate_in_moves(before->score)));
    else if (j->mate_allowed)
        snprintf(out, size, "walks into mate in %d", abs(mate_in_moves(after->score)));
    else
        describe_material_loss(board_after, after->best, taken, out, size);
}

/* ---- writing ---------------------------------------------------------------- */

static bool is_own_tag(const char *name)
{
    for (size_t i = 0; i < sizeof OWN_TAGS / sizeof *OWN_TAGS; i++)
        if (strcmp(name, OWN_TAGS[i]) == 0)
            return true;
    for (int k = 0; k < PGN_ROSTER_SIZE; k++)
        if (strcmp(name, PGN_ROSTER[k]) == 0)
            return true;
    return false;
}

static void write_tags(FILE *out, const PgnGame *g, const AnnotateSettings *s, const GameReport *r)
{
    for (int k = 0; k < PGN_ROSTER_SIZE; k++) {
        const char *value = k == PGN_ROSTER_RESULT ? g->result : pgn_tag(g, PGN_ROSTER[k]);
        pgn_write_tag(out, PGN_ROSTER[k], value && value[0] ? value : PGN_ROSTER_UNKNOWN[k]);
    }
    if (g->has_fen || g->chess960) { /* a Chess960 game without one began at the classical start */
        pgn_write_tag(out, "SetUp", "1");
        pgn_write_tag(out, "FEN", g->fen);
    }
    for (int i = 0; i < g->tag_count; i++)
        if (!is_own_tag(g->tags[i].name))
            pgn_write_tag(out, g->tags[i].name, g->tags[i].value);
    pgn_write_tag(out, "Annotator", s->annotator);
    static const char *const SIDE_NAMES[COLOR_NB] = { "White", "Black" };
    for (Color c = WHITE; c < COLOR_NB; c++) {
        if (r->accuracy[c] < 0)
            continue;
        char name[32], value[32];
        snprintf(name, sizeof name, "%sAccuracy", SIDE_NAMES[c]);
        snprintf(value, sizeof value, "%.1f", r->accuracy[c]);
        pgn_write_tag(out, name, value);
        snprintf(name, sizeof name, "%sACPL", SIDE_NAMES[c]);
        snprintf(value, sizeof value, "%d", r->acpl[c]);
        pgn_write_tag(out, name, value);
    }
    fputc('\n', out);
}

/* A comment written word by word, so that lines break between words; the
 * [%eval] command stays in one word. */
static void write_comment(PgnLine *line, const char *eval, const char *text)
{
    char word[80];
    bool open = false; /* the "{" is written */
    if (eval[0]) {
        snprintf(word, sizeof word, "{[%%eval %s]%s", eval, text[0] ? "" : "}");
        pgn_write_word(line, word);
        open = true;
    }
    for (const char *p = text; *p;) {
        size_t length = strcspn(p, " ");
        const char *next = p + length + strspn(p + length, " ");
        snprintf(word, sizeof word, "%s%.*s%s", open ? "" : "{", (int)length, p, *next ? "" : "}");
        pgn_write_word(line, word);
        open = true;
        p = next;
    }
}

static void copy_board(Board *to, const Board *from)
{
    memcpy(to, from, offsetof(Board, states) + sizeof(BoardState) * (size_t)(from->state_index + 1));
}

/* The engine's line from `from` (not changed) as a variation; it ends at
 * the first move that is not legal, which a sound line never has. */
static void write_variation(PgnLine *line, const Board *from, Board *scratch, const Move *moves, int count)
{
    copy_board(scratch, from);
    char word[80] = "", san[MOVE_TEXT_SIZE];
    for (int i = 0; i < count && move_is_legal(scratch, moves[i]); i++) {
        if (word[0])
            pgn_write_word(line, word);
        move_to_san(scratch, moves[i], san);
        char numbered[64];
        pgn_format_move(numbered, sizeof numbered, scratch->game_ply, i == 0, san);
        snprintf(word, sizeof word, "%s%s", i == 0 ? "(" : "", numbered);
        board_make_move(scratch, moves[i]);
    }
    if (word[0]) {
        strcat(word, ")");
        pgn_write_word(line, word);
    }
}

/* What a move took, as a piece type, or -1. */
static int piece_taken(const Board *b, Move m)
{
    if (move_kind(m) == MOVE_EN_PASSANT)
        return PAWN;
    if (move_kind(m) == MOVE_CASTLING || board_piece_on(b, move_to(m)) == NO_PIECE)
        return -1;
    return piece_type(board_piece_on(b, move_to(m)));
}

typedef struct {
    Board *board;    /* the game, move by move */
    Board *before;   /* the position before a move that gets a variation */
    Board *scratch;  /* the variation's moves */
    PgnLine line;
    const PositionVerdict *p;
    const AnnotateSettings *settings;
    GameReport *report;
} GameWriter;

/* Writes move k of the game (played from position k - 1) with its annotations. */
static void write_move(GameWriter *w, int k, Move m)
{
    Board *b = w->board;
    const PositionVerdict *before = &w->p[k - 1], *after = &w->p[k];
    Color mover = b->side;
    bool judged = w->settings->sides[mover] && m != before->best && before->best != MOVE_NONE;
    Judgement j = { MARK_NONE, false, false };
    if (judged)
        j = judge_move(before->score, after->score, mover);
    w->report->marks[mover][j.mark]++;

    char san[MOVE_TEXT_SIZE], best_san[MOVE_TEXT_SIZE] = "", word[64];
    move_to_san(b, m, san);
    if (j.mark != MARK_NONE)
        move_to_san(b, before->best, best_san);
    pgn_write_move(&w->line, b->game_ply, true, san);
    if (j.mark != MARK_NONE) {
        snprintf(word, sizeof word, "$%d", mark_nag(j.mark));
        pgn_write_word(&w->line, word);
    }
    if (j.mark >= MARK_MISTAKE)
        copy_board(w->before, b);
    int taken = piece_taken(b, m);
    board_make_move(b, m);
    board_trim_history(b);

    char eval[16] = "", loss[96] = "", text[192] = "";
    if (!after->mated)
        format_pgn_eval(after->score, eval, sizeof eval);
    if (j.mark != MARK_NONE) {
        describe_loss(&j, before, after, b, taken, loss, sizeof loss);
        snprintf(text, sizeof text, "%s%s%s. %s was best.", mark_name(j.mark), loss[0] ? ": " : "", loss, best_san);
    }
    write_comment(&w->line, eval, text);
    if (j.mark >= MARK_MISTAKE)
        write_variation(&w->line, w->before, w->scratch, before->line, before->line_length);
}

static void fill_report(const PgnGame *g, const PositionVerdict *p, const AnnotateSettings *s, GameReport *r)
{
    int *scores = malloc(sizeof *scores * (size_t)(g->move_count + 1));
    memset(r, 0, sizeof *r);
    r->plies = g->move_count;
    for (int k = 0; scores && k <= g->move_count; k++)
        scores[k] = model_centipawns(p[k].score);
    Color first = annotate_first_mover(g);
    if (scores) {
        game_accuracy(scores, g->move_count, first, r->accuracy);
        average_centipawn_loss(scores, g->move_count, first, r->acpl);
    }
    for (Color c = WHITE; c < COLOR_NB; c++)
        if (!scores || !s->sides[c])
            r->accuracy[c] = -1, r->acpl[c] = -1;
    free(scores);
}

static bool write_game(FILE *out, const PgnGame *g, const PositionVerdict *p, const AnnotateSettings *s,
                       GameReport *r)
{
    char error[128];
    GameWriter w = { malloc(sizeof(Board)), malloc(sizeof(Board)), malloc(sizeof(Board)), { out, 0 }, p, s, r };
    bool ok = w.board && w.before && w.scratch && board_set_fen_960(w.board, g->fen, g->chess960, error, sizeof error);
    if (ok) {
        write_tags(out, g, s, r);
        for (int k = 1; k <= g->move_count; k++)
            write_move(&w, k, g->moves[k - 1]);
        pgn_write_word(&w.line, g->result);
        fputs("\n\n", out);
    }
    free(w.board);
    free(w.before);
    free(w.scratch);
    return ok;
}

bool annotate_game(const PgnGame *g, const AnnotateSettings *settings, const AnnotateHooks *hooks,
                   const PositionSplit *split, FILE *out, GameReport *report)
{
    PositionVerdict *p = malloc(sizeof *p * (size_t)(g->move_count + 1));
    bool ok = p && annotate_search_game(g, &settings->limits, settings->looks_twice ? &settings->second_look : NULL,
                                         settings->sides, hooks, split, p);
    if (ok) {
        fill_report(g, p, settings, report);
        ok = write_game(out, g, p, settings, report);
    }
    free(p);
    return ok;
}
