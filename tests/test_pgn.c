/* test_pgn.c — the PGN reader on the forms real files take, its error
 * reports, the master-games file, and the writer. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/pgn.h"
#include "notation.h"
#include "support.h"

TestSuite(pgn, .init = board_init, .timeout = 120);

/* Reads all games of `text`; returns how many were good, fills `errors`. */
typedef struct {
    int good, bad;
    PgnError errors[8];
    int moves[16];           /* move_count of each good game */
    char results[16][8];
    bool truncated[16];
    char last_san[16][MOVE_TEXT_SIZE]; /* the last move of each good game, in SAN */
} Outcome;

static Outcome read_all(const char *text)
{
    Outcome o = { 0 };
    PgnReader *r = pgn_open_text(text, strlen(text));
    cr_assert_not_null(r);
    const PgnGame *g;
    PgnError e;
    PgnStatus s;
    Board *b = malloc(sizeof *b);
    while ((s = pgn_next(r, &g, &e)) != PGN_END) {
        if (s == PGN_BAD_GAME) {
            if (o.bad < 8)
                o.errors[o.bad] = e;
            o.bad++;
            continue;
        }
        if (o.good < 16) {
            o.moves[o.good] = g->move_count;
            strcpy(o.results[o.good], g->result);
            o.truncated[o.good] = g->truncated;
            board_load(b, g->fen);
            for (int i = 0; i + 1 < g->move_count; i++)
                board_make_move(b, g->moves[i]);
            if (g->move_count)
                move_to_san(b, g->moves[g->move_count - 1], o.last_san[o.good]);
        }
        o.good++;
    }
    free(b);
    pgn_close(r);
    return o;
}

Test(pgn, tags_moves_and_result)
{
    const char *text = "[Event \"Test \\\"quoted\\\" \\\\ back\"]\n[Site \"?\"]\n[Result \"1-0\"]\n\n"
                       "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";
    PgnReader *r = pgn_open_text(text, strlen(text));
    const PgnGame *g;
    PgnError e;
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME);
    cr_assert_str_eq(pgn_tag(g, "Event"), "Test \"quoted\" \\ back");
    cr_assert_eq(g->move_count, 6);
    cr_assert_str_eq(g->result, "1-0");
    cr_assert_not(g->truncated);
    cr_assert_eq(g->number, 1);
    cr_assert_eq(pgn_next(r, &g, &e), PGN_END);
    pgn_close(r);
}

Test(pgn, comments_variations_nags_and_suffixes)
{
    Outcome o = read_all(
        "[Event \"x\"]\n\n"
        "1. e4 {a comment\nover two lines} e5 ; to the end of the line 1-0 (not a result)\n"
        "2. Nf3!? $1 (2. f4 exf4 (2... d5 3. exd5 {nested} (3. Nc3)) 3. Nf3) Nc6?! $6 $14\n"
        "3. Bb5 {[%clk 0:10:00]} a6 +- 4. Ba4 Nf6 5. O-O! 1/2-1/2\n");
    cr_assert_eq(o.bad, 0, "error: %s (line %d)", o.errors[0].message, o.errors[0].line);
    cr_assert_eq(o.good, 1);
    cr_assert_eq(o.moves[0], 9);
    cr_assert_str_eq(o.last_san[0], "O-O");
    cr_assert_str_eq(o.results[0], "1/2-1/2");
}

Test(pgn, move_numbers_in_every_form)
{
    Outcome o = read_all("[Event \"a\"]\n\n1.e4 e5 2.Nf3 2...Nc6 3 . Bc4 3 ... Bc5 4.c3 Nf6 *\n\n"
                         "[Event \"b\"]\n\ne4 e5 Nf3 Nc6 *\n\n"
                         "[Event \"c\"]\n\n1. e4 1... e5 2. Nf3 *\n");
    cr_assert_eq(o.bad, 0, "error: %s", o.errors[0].message);
    cr_assert_eq(o.good, 3);
    cr_assert_eq(o.moves[0], 8);
    cr_assert_eq(o.moves[1], 4);
    cr_assert_eq(o.moves[2], 3);
}

Test(pgn, sloppy_san)
{
    Outcome o = read_all("[FEN \"4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1\"]\n[SetUp \"1\"]\n\n"
                         "1. exd6e.p. Kd7 2. b8Q Ke6 3. 0-0-0 Kf5 4. Rd1d2 *\n");
    cr_assert_eq(o.bad, 0, "error: %s", o.errors[0].message);
    cr_assert_eq(o.moves[0], 7);
    cr_assert_str_eq(o.last_san[0], "Rd2");
}

Test(pgn, percent_escape_lines)
{
    Outcome o = read_all("% a comment for software\n[Event \"x\"]\n%another [Event \"not a tag\"]\n\n"
                         "1. d4 d5\n% 2. Nonsense\n2. c4 *\n");
    cr_assert_eq(o.bad, 0, "error: %s", o.errors[0].message);
    cr_assert_eq(o.good, 1);
    cr_assert_eq(o.moves[0], 3);
}

Test(pgn, crlf_line_ends)
{
    Outcome o = read_all("[Event \"x\"]\r\n[Result \"0-1\"]\r\n\r\n1. f3 e5 2. g4\r\n{mate\r\nnext} Qh4# 0-1\r\n\r\n"
                         "[Event \"y\"]\r\n\r\n1. e4 *\r\n");
    cr_assert_eq(o.bad, 0, "error: %s", o.errors[0].message);
    cr_assert_eq(o.good, 2);
    cr_assert_str_eq(o.last_san[0], "Qh4#");
    cr_assert_str_eq(o.results[0], "0-1");
}

Test(pgn, latin1_and_utf8_bytes)
{
    const char *text = "[White \"M\xfcller, J\xf6rg\"]\n[Black \"\xc3\x9f\"]\n\n1. e4 {Er\xf6" "ffnung} c5 \xbd-\xbd\n\n"
                       "[White \"x\"]\n\n1. d4 \xc2\xbd-\xc2\xbd\n";
    PgnReader *r = pgn_open_text(text, strlen(text));
    const PgnGame *g;
    PgnError e;
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    cr_assert_str_eq(pgn_tag(g, "White"), "M\xfcller, J\xf6rg");
    cr_assert_str_eq(g->result, "1/2-1/2");
    cr_assert_eq(g->move_count, 2);
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    cr_assert_str_eq(g->result, "1/2-1/2");
    cr_assert_eq(pgn_next(r, &g, &e), PGN_END);
    pgn_close(r);
}

Test(pgn, fen_and_setup_tags)
{
    const char *text = "[Event \"endgame\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/5k2/8/7p/5K2 b - - 0 60\"]\n\n"
                       "60... h1=Q+ 61. Ke2 Qe4+ 62. Kd2 0-1\n";
    PgnReader *r = pgn_open_text(text, strlen(text));
    const PgnGame *g;
    PgnError e;
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    cr_assert(g->has_fen);
    cr_assert_eq(g->move_count, 4);
    cr_assert_eq(move_kind(g->moves[0]), MOVE_PROMOTION);
    pgn_close(r);
}

/* Chess960 from BQNBRKRN: White's O-O puts the king on its own rook's
 * square (g1), Black's O-O-O takes the king from f8 to c8 past its rook. */
static const char CHESS960_GAMES[] =
    "[Event \"X-FEN, SAN\"]\n[Variant \"Chess960\"]\n"
    "[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1\"]\n\n"
    "1. O-O Nd6 2. d4 e6 3. Nd3 Be7 4. Ng3 O-O-O *\n\n"
    "[Event \"Shredder-FEN, king takes rook\"]\n[Variant \"fischerandom\"]\n"
    "[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n"
    "1. f1g1 f8g8 *\n\n"
    "[Event \"Spelt apart\"]\n[Variant \"CHESS 960\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n\n"
    "[Event \"Another variant\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n"
    "[Event \"Standard\"]\n[Variant \"Standard\"]\n\n1. e4 *\n";

/* The castling moves of a game read, in SAN from its own start. */
static void castling_sans(const PgnGame *g, char *out, size_t size)
{
    Board *b = malloc(sizeof *b);
    char error[128];
    cr_assert(board_set_fen_960(b, g->fen, g->chess960, error, sizeof error), "%s", error);
    out[0] = '\0';
    for (int i = 0; i < g->move_count; i++) {
        char san[MOVE_TEXT_SIZE];
        move_to_san(b, g->moves[i], san);
        if (move_kind(g->moves[i]) == MOVE_CASTLING)
            snprintf(out + strlen(out), size - strlen(out), "%s%d:%s", out[0] ? " " : "", i + 1, san);
        board_make_move(b, g->moves[i]);
    }
    free(b);
}

Test(pgn, chess960_games_when_allowed)
{
    PgnReader *r = pgn_open_text(CHESS960_GAMES, strlen(CHESS960_GAMES));
    pgn_allow_chess960(r, true);
    const PgnGame *g;
    PgnError e;
    char castles[64];
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    castling_sans(g, castles, sizeof castles);
    cr_assert(g->chess960 && g->has_fen && g->move_count == 8);
    cr_assert_str_eq(castles, "1:O-O 8:O-O-O");
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    castling_sans(g, castles, sizeof castles);
    cr_assert(g->chess960 && g->move_count == 2);
    cr_assert_str_eq(castles, "1:O-O 2:O-O", "king takes rook read as castling: %s", castles);
    /* No FEN tag: Chess960's position 518, the classical start. */
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    castling_sans(g, castles, sizeof castles);
    cr_assert(g->chess960 && !g->has_fen && strcmp(g->fen, START_FEN) == 0);
    cr_assert_str_eq(castles, "7:O-O");
    cr_assert_eq(pgn_next(r, &g, &e), PGN_BAD_GAME);
    cr_assert_eq(e.game, 4);
    cr_assert(strstr(e.message, "Crazyhouse"), "%s", e.message);
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    cr_assert_not(g->chess960);
    cr_assert_eq(pgn_next(r, &g, &e), PGN_END);
    pgn_close(r);
}

Test(pgn, chess960_games_are_unreadable_unless_allowed)
{
    Outcome o = read_all(CHESS960_GAMES);
    cr_assert_eq(o.good, 1); /* the standard game alone */
    cr_assert_eq(o.bad, 4);
    for (int i = 0; i < 3; i++)
        cr_assert(strstr(o.errors[i].message, "Chess960"), "game %d: %s", o.errors[i].game, o.errors[i].message);
    cr_assert(strstr(o.errors[3].message, "Crazyhouse"), "%s", o.errors[3].message);
}

Test(pgn, games_that_end_abruptly)
{
    Outcome o = read_all("[Event \"cut\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3\n\n"
                         "[Event \"next\"]\n\n1. d4 d5 1/2-1/2\n\n"
                         "[Event \"last\"]\n\n1. c4 e5 2. Nc3");
    cr_assert_eq(o.bad, 0, "error: %s", o.errors[0].message);
    cr_assert_eq(o.good, 3);
    cr_assert(o.truncated[0]);
    cr_assert_str_eq(o.results[0], "1-0"); /* from the Result tag */
    cr_assert_eq(o.moves[0], 3);
    cr_assert_not(o.truncated[1]);
    cr_assert(o.truncated[2]);
    cr_assert_str_eq(o.results[2], "*");
    cr_assert_eq(o.moves[2], 3);
}

Test(pgn, bad_games_are_reported_and_skipped)
{
    const char *text =
        "[Event \"good 1\"]\n\n1. e4 e5 *\n\n"                              /* lines 1-3 */
        "[Event \"illegal move\"]\n\n1. e4 e5\n2. Ke3 Nc6 3. d4 *\n\n"       /* game 2: line 8 */
        "[Event \"good 3\"]\n\n1. d4 *\n\n"                                 /* lines 10-12 */
        "[Event \"unclosed comment\"]\n\n1. e4 {never closed\n1. e5\n\n"    /* game 4: line 16 */
        "[Event \"good 5\"]\n\n1. c4 *\n\n"                                 /* lines 19-21 */
        "[Event broken]\n\n1. e4 *\n\n"                                     /* game 6: line 23 */
        "[Event \"unclosed variation\"]\n\n1. e4 (1. d4 d5 2. c4 *\n\n"     /* game 7: line 29 */
        "[Event \"bad FEN\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n" /* game 8: line 31 */
        "[Event \"good 9\"]\n\n1. Nf3 *\n";
    Outcome o = read_all(text);
    cr_assert_eq(o.good, 4);
    cr_assert_eq(o.bad, 5);
    int games[] = { 2, 4, 6, 7, 8 }, lines[] = { 8, 16, 23, 29, 31 };
    for (int i = 0; i < 5; i++) {
        cr_expect_eq(o.errors[i].game, games[i], "error %d: game %d (%s)", i, o.errors[i].game, o.errors[i].message);
        cr_expect_eq(o.errors[i].line, lines[i], "error %d: line %d (%s)", i, o.errors[i].line, o.errors[i].message);
    }
    cr_assert(strstr(o.errors[0].message, "2. Ke3"), "%s", o.errors[0].message);
    cr_assert(strstr(o.errors[1].message, "comment"), "%s", o.errors[1].message);
    cr_assert(strstr(o.errors[3].message, "variation"), "%s", o.errors[3].message);
    cr_assert(strstr(o.errors[4].message, "FEN"), "%s", o.errors[4].message);
}

Test(pgn, empty_and_tagless_input)
{
    Outcome o = read_all("");
    cr_assert_eq(o.good + o.bad, 0);
    o = read_all("\n\n  \n");
    cr_assert_eq(o.good + o.bad, 0);
    o = read_all("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
    cr_assert_eq(o.good, 1);
    cr_assert_str_eq(o.last_san[0], "Qxf7#");
}

Test(pgn, a_move_limit_reads_over_the_rest)
{
    const char *text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ke3 *\n";
    PgnReader *r = pgn_open_text(text, strlen(text));
    pgn_set_move_limit(r, 4);
    const PgnGame *g;
    PgnError e;
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME);
    cr_assert_eq(g->move_count, 4);
    cr_assert_eq(g->plies, 5);
    pgn_close(r);
}

/* The master games read with no error at all (the book is built from them). */
Test(pgn, master_games_read_without_errors, .timeout = 240)
{
    const char *dir = getenv("BACHESS_DATA");
    char path[1024], error[256];
    snprintf(path, sizeof path, "%s/master_games.pgn", dir && *dir ? dir : "data");
    PgnReader *r = pgn_open(path, error, sizeof error);
    cr_assert_not_null(r, "%s", error);
    if (test_light())
        pgn_set_move_limit(r, 40);
    const PgnGame *g;
    PgnError e;
    PgnStatus s;
    long games = 0, positions = 0, truncated = 0;
    while ((s = pgn_next(r, &g, &e)) != PGN_END) {
        cr_assert_eq(s, PGN_GAME, "game %d, line %d: %s", e.game, e.line, e.message);
        games++;
        positions += g->move_count;
        truncated += g->truncated;
    }
    pgn_close(r);
    printf("master_games.pgn: %ld games, %ld positions (moves parsed%s)\n", games, positions,
           test_light() ? ", first 40 plies" : "");
    cr_assert_eq(games, 12902);
    cr_assert_eq(truncated, 0);
}

/* What the writer writes, the reader reads back move for move. */
Test(pgn, writer_round_trip)
{
    Board *b = board_from_fen(START_FEN);
    const char *line = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 "
                       "Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 Nc4 Nxc4 Bxc4 Nb6";
    Move moves[64];
    int n = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", line);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        moves[n] = move_parse(b, w);
        cr_assert_neq(moves[n], MOVE_NONE, "%s", w);
        board_make_move(b, moves[n++]);
    }
    PgnTag tags[] = { { "White", "Fischer, \"Bobby\"" }, { "Black", "Spassky" }, { "Annotator", "none" } };
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    cr_assert(pgn_write_game(f, tags, 3, NULL, moves, n, "1-0"));
    cr_assert(pgn_write_game(f, NULL, 0, "8/8/8/8/5k2/8/7p/5K2 b - - 0 60", (Move[]){ make_special(H2, H1, MOVE_PROMOTION, QUEEN) },
                             1, "0-1"));
    Move illegal = make_move(E2, E5);
    cr_assert_not(pgn_write_game(f, NULL, 0, NULL, &illegal, 1, "*"));
    fclose(f);
    const char *head = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                       "[White \"Fischer, \\\"Bobby\\\"\"]\n[Black \"Spassky\"]\n[Result \"1-0\"]\n"
                       "[Annotator \"none\"]\n\n1. e4 e5 2. Nf3";
    cr_assert(strncmp(text, head, strlen(head)) == 0, "%s", text);
    cr_assert(strstr(text, "[SetUp \"1\"]\n[FEN \"8/8/8/8/5k2/8/7p/5K2 b - - 0 60\"]"), "%s", text);
    cr_assert(strstr(text, "60... h1=Q+ 0-1"), "%s", text);
    char *lines = strdup(text);
    for (char *save = NULL, *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        cr_assert_lt(strlen(l), 80u, "line too long: %s", l);
    free(lines);
    PgnReader *r = pgn_open_text(text, size);
    const PgnGame *g;
    PgnError e;
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    cr_assert_eq(g->move_count, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(g->moves[i], moves[i]);
    cr_assert_str_eq(pgn_tag(g, "White"), "Fischer, \"Bobby\"");
    cr_assert_eq(pgn_next(r, &g, &e), PGN_GAME, "%s", e.message);
    cr_assert_str_eq(g->result, "0-1");
    cr_assert_eq(pgn_next(r, &g, &e), PGN_END);
    pgn_close(r);
    free(text);
    free(b);
}
