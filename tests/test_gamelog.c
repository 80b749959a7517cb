/*
 * test_gamelog.c — the game record and its PGN: exact text for known games,
 * games from a FEN (SetUp/FEN tags, move numbers from the FEN), wrapping,
 * results with their reasons, tags, undo, appending to a file, and Debian's
 * pgn-extract reading what we write without a complaint.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/gamelog.h"
#include "movegen.h"
#include "support.h"

TestSuite(gamelog, .init = board_init);

static void start(GameLog *g, const char *fen)
{
    char error[128];
    cr_assert(gamelog_start(g, fen, error, sizeof error), "gamelog_start(%s): %s", fen ? fen : "NULL", error);
    /* Fixed tags, so that the text does not depend on today's date. */
    cr_assert(gamelog_set_tag(g, "Event", "Test"));
    cr_assert(gamelog_set_tag(g, "Site", "Here"));
    cr_assert(gamelog_set_tag(g, "Date", "2024.01.02"));
    cr_assert(gamelog_set_tag(g, "Round", "1"));
    cr_assert(gamelog_set_tag(g, "White", "A"));
    cr_assert(gamelog_set_tag(g, "Black", "B"));
}

static void play(GameLog *g, const char *moves)
{
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *save = NULL, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save))
        cr_assert(gamelog_add_text(g, m), "move %s refused", m);
}

static void expect_pgn(const GameLog *g, const char *want)
{
    char *text = gamelog_pgn(g);
    cr_assert_not_null(text);
    cr_expect_str_eq(text, want);
    free(text);
}

Test(gamelog, fools_mate_exact_text)
{
    GameLog g = { 0 };
    start(&g, NULL);
    play(&g, "f3 e5 g4 Qh4");
    cr_expect_eq(gamelog_ply_count(&g), 4);
    cr_assert(gamelog_finish_by_rules(&g));
    cr_expect_eq(g.result, RESULT_BLACK_WINS);
    cr_expect_str_eq(g.reason, "Black mates");
    expect_pgn(&g, "[Event \"Test\"]\n"
                   "[Site \"Here\"]\n"
                   "[Date \"2024.01.02\"]\n"
                   "[Round \"1\"]\n"
                   "[White \"A\"]\n"
                   "[Black \"B\"]\n"
                   "[Result \"0-1\"]\n"
                   "[PlyCount \"4\"]\n"
                   "[Termination \"normal\"]\n"
                   "\n"
                   "1. f3 e5 2. g4 Qh4# {Black mates} 0-1\n"
                   "\n");
    gamelog_free(&g);
}

Test(gamelog, coordinates_and_san_both_accepted)
{
    GameLog g = { 0 };
    start(&g, NULL);
    play(&g, "e2e4 e7e5 Nf3 b8c6 Bb5 a6 e1g1");
    expect_pgn(&g, "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n"
                   "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[PlyCount \"7\"]\n"
                   "[Termination \"unterminated\"]\n\n"
                   "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O *\n\n");
    gamelog_free(&g);
}

Test(gamelog, default_roster)
{
    GameLog g = { 0 };
    char error[64];
    cr_assert(gamelog_start(&g, NULL, error, sizeof error));
    cr_expect_str_eq(gamelog_tag(&g, "Event"), "?");
    cr_expect_str_eq(gamelog_tag(&g, "Site"), "?");
    cr_expect_str_eq(gamelog_tag(&g, "Round"), "-");
    cr_expect_str_eq(gamelog_tag(&g, "White"), "?");
    cr_expect_str_eq(gamelog_tag(&g, "Black"), "?");
    const char *date = gamelog_tag(&g, "Date");
    cr_expect_eq(strlen(date), 10);
    cr_expect(date[4] == '.' && date[7] == '.', "date %s is not YYYY.MM.DD", date);
    char *text = gamelog_pgn(&g);
    cr_expect(strstr(text, "\n\n*\n\n") != NULL, "an empty game is just the result:\n%s", text);
    free(text);
    gamelog_free(&g);
}

Test(gamelog, game_from_fen_has_setup_and_numbers_from_the_fen)
{
    GameLog g = { 0 };
    const char *fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 12";
    start(&g, fen);
    play(&g, "Kd7 e4 Ke6");
    expect_pgn(&g, "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n"
                   "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n"
                   "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 12\"]\n"
                   "[PlyCount \"3\"]\n"
                   "[SetUp \"1\"]\n"
                   "[Termination \"unterminated\"]\n\n"
                   "12... Kd7 13. e4 Ke6 *\n\n");
    char numbered[32];
    gamelog_numbered_san(&g, 0, numbered, sizeof numbered);
    cr_expect_str_eq(numbered, "12... Kd7");
    gamelog_numbered_san(&g, 1, numbered, sizeof numbered);
    cr_expect_str_eq(numbered, "13. e4");
    gamelog_free(&g);
}

Test(gamelog, the_start_position_as_fen_needs_no_setup)
{
    GameLog g = { 0 };
    start(&g, START_FEN);
    play(&g, "d4");
    char *text = gamelog_pgn(&g);
    cr_expect(strstr(text, "SetUp") == NULL && strstr(text, "[FEN") == NULL, "%s", text);
    free(text);
    gamelog_free(&g);
}

Test(gamelog, bad_fen_is_refused_and_the_log_kept)
{
    GameLog g = { 0 };
    start(&g, NULL);
    play(&g, "e4");
    char error[128] = "";
    cr_expect_not(gamelog_start(&g, "8/8/8 w - - 0 1", error, sizeof error));
    cr_expect_neq(error[0], '\0');
    cr_expect_eq(gamelog_ply_count(&g), 1);
    cr_expect_str_eq(g.moves[0].san, "e4");
    GameLog fresh = { 0 };
    cr_expect_not(gamelog_start(&fresh, "not a fen", error, sizeof error));
    cr_expect_null(fresh.board);
    gamelog_free(&g);
}

Test(gamelog, illegal_moves_are_refused)
{
    GameLog g = { 0 };
    start(&g, NULL);
    cr_expect_not(gamelog_add_text(&g, "e5"));
    cr_expect_not(gamelog_add_text(&g, "Ke2"));
    cr_expect_not(gamelog_add_text(&g, "e2e5"));
    cr_expect_not(gamelog_add(&g, MOVE_NONE));
    cr_expect_eq(gamelog_ply_count(&g), 0);
    cr_expect(gamelog_add_text(&g, "e4"));
    cr_expect_not(gamelog_add_text(&g, "e4"));
    cr_expect_eq(gamelog_ply_count(&g), 1);
    gamelog_free(&g);
}

Test(gamelog, undo_takes_back_moves_and_the_result)
{
    GameLog g = { 0 };
    start(&g, NULL);
    play(&g, "f3 e5 g4 Qh4");
    cr_assert(gamelog_finish_by_rules(&g));
    cr_assert(gamelog_undo(&g));
    cr_expect_eq(g.result, RESULT_NONE);
    cr_expect_str_eq(g.reason, "");
    cr_expect_not(gamelog_finish_by_rules(&g));
    play(&g, "Qe7");
    cr_assert(gamelog_undo(&g) && gamelog_undo(&g) && gamelog_undo(&g) && gamelog_undo(&g));
    cr_expect_not(gamelog_undo(&g));
    char fen[128];
    board_get_fen(gamelog_board(&g), fen, sizeof fen);
    cr_expect_str_eq(fen, START_FEN);
    play(&g, "e4");
    cr_expect_str_eq(g.moves[0].san, "e4");
    gamelog_free(&g);
}

static void expect_end(const char *fen, const char *moves, GameResult result, const char *reason)
{
    GameLog g = { 0 };
    start(&g, fen);
    if (moves)
        play(&g, moves);
    cr_assert(gamelog_finish_by_rules(&g), "%s %s: not over", fen, moves ? moves : "");
    cr_expect_eq(g.result, result, "%s: result %s", fen, gamelog_result_text(g.result));
    cr_expect_str_eq(g.reason, reason);
    char *text = gamelog_pgn(&g);
    for (char *c = strstr(text, "\n\n") + 2; *c; c++)
        if (*c == '\n' && c[1] != '\n' && c[1] != '\0')
            *c = ' '; /* the movetext unwrapped */
    char tail[160];
    snprintf(tail, sizeof tail, "{%s} %s\n\n", reason, gamelog_result_text(result));
    cr_expect(strstr(text, tail) != NULL, "no '%s' in\n%s", tail, text);
    char tag[64];
    snprintf(tag, sizeof tag, "[Result \"%s\"]", gamelog_result_text(result));
    cr_expect(strstr(text, tag) != NULL, "no %s in\n%s", tag, text);
    cr_expect(strstr(text, "[Termination \"normal\"]") != NULL, "%s", text);
    free(text);
    gamelog_free(&g);
}

Test(gamelog, results_and_reasons_by_the_rules)
{
    expect_end("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8", RESULT_WHITE_WINS, "White mates");
    expect_end(START_FEN, "f3 e5 g4 Qh4", RESULT_BLACK_WINS, "Black mates");
    expect_end("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "Qf8", RESULT_WHITE_WINS, "White mates");
    expect_end("7k/8/6Q1/8/8/8/8/6K1 w - - 0 1", "Kf2", RESULT_DRAW, "Draw by stalemate");
    expect_end("7k/8/8/8/8/8/8/R5K1 b - - 99 80", "Kg7", RESULT_DRAW, "Draw by fifty-move rule");
    expect_end(START_FEN, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", RESULT_DRAW, "Draw by threefold repetition");
    expect_end("7k/8/8/8/8/8/8/1B4K1 w - - 0 1", NULL, RESULT_DRAW, "Draw by insufficient material");
}

Test(gamelog, results_given_by_a_front_end)
{
    GameLog g = { 0 };
    start(&g, NULL);
    play(&g, "e4 e5");
    gamelog_finish(&g, RESULT_WHITE_WINS, "Black resigns");
    char *text = gamelog_pgn(&g);
    cr_expect(strstr(text, "1. e4 e5 {Black resigns} 1-0\n") != NULL, "%s", text);
    cr_expect(strstr(text, "[Termination \"normal\"]") != NULL, "%s", text);
    free(text);

    gamelog_finish(&g, RESULT_BLACK_WINS, "White loses on time");
    text = gamelog_pgn(&g);
    cr_expect(strstr(text, "[Termination \"time forfeit\"]") != NULL, "%s", text);
    cr_expect(strstr(text, "{White loses on time} 0-1") != NULL, "%s", text);
    free(text);

    gamelog_finish(&g, RESULT_DRAW, "Draw {agreed}");
    text = gamelog_pgn(&g);
    cr_expect(strstr(text, "{Draw (agreed)} 1/2-1/2") != NULL, "braces cannot nest in a comment:\n%s", text);
    free(text);

    gamelog_finish(&g, RESULT_DRAW, NULL);
    cr_assert(gamelog_set_tag(&g, "Termination", "adjudication"));
    text = gamelog_pgn(&g);
    cr_expect(strstr(text, "1. e4 e5 1/2-1/2\n") != NULL, "%s", text);
    cr_expect(strstr(text, "[Termination \"adjudication\"]") != NULL, "%s", text);
    free(text);
    gamelog_free(&g);
}

Test(gamelog, tags)
{
    GameLog g = { 0 };
    start(&g, NULL);
    cr_expect_not(gamelog_set_tag(&g, "Result", "1-0"), "the result comes from the game");
    cr_expect_not(gamelog_set_tag(&g, "FEN", "8/8/8/8/8/8/8/8 w - - 0 1"));
    cr_expect_not(gamelog_set_tag(&g, "PlyCount", "3"));
    cr_expect_not(gamelog_set_tag(&g, "Bad Name", "x"));
    cr_expect_not(gamelog_set_tag(&g, "", "x"));
    cr_expect(gamelog_set_tag(&g, "White", "Name \"Nick\" C:\\dir"));
    cr_expect(gamelog_set_tag(&g, "TimeControl", "40/7200"));
    cr_expect(gamelog_set_tag(&g, "Annotator", "bachess"));
    cr_expect(gamelog_set_tag(&g, "WhiteElo", "1500"));
    cr_expect(gamelog_set_tag(&g, "WhiteElo", NULL), "a tag outside the roster can be removed");
    cr_expect_null(gamelog_tag(&g, "WhiteElo"));
    cr_expect(gamelog_set_tag(&g, "Black", ""), "a roster tag becomes unknown");
    cr_expect_str_eq(gamelog_tag(&g, "Black"), "?");
    expect_pgn(&g, "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n"
                   "[White \"Name \\\"Nick\\\" C:\\\\dir\"]\n[Black \"?\"]\n[Result \"*\"]\n"
                   "[Annotator \"bachess\"]\n[PlyCount \"0\"]\n[Termination \"unterminated\"]\n"
                   "[TimeControl \"40/7200\"]\n\n*\n\n");
    int added = 0;
    for (int i = 0; i < 100; i++) {
        char name[32];
        snprintf(name, sizeof name, "Extra%d", i);
        added += gamelog_set_tag(&g, name, "x");
    }
    cr_expect_eq(added, GAMELOG_MAX_TAGS - 7 - 2, "room for %d more tags", added);
    gamelog_free(&g);
}

/* The movetext of a PGN: everything after the first blank line. */
static const char *movetext(const char *pgn)
{
    const char *blank = strstr(pgn, "\n\n");
    cr_assert_not_null(blank);
    return blank + 2;
}

Test(gamelog, long_games_wrap_below_80_columns)
{
    GameLog g = { 0 };
    start(&g, NULL);
    TestRng rng = { 12345 };
    /* A random game of up to 300 plies, stopping where the rules end it. */
    while (gamelog_ply_count(&g) < 300 && !gamelog_finish_by_rules(&g)) {
        MoveList list;
        generate_legal(gamelog_board(&g), &list);
        cr_assert(gamelog_add(&g, list.moves[rng_below(&rng, list.count)]));
    }
    gamelog_finish(&g, g.result ? g.result : RESULT_DRAW,
                   "A long reason that makes the comment wrap over a line end, as the movetext must");
    char *text = gamelog_pgn(&g);
    const char *moves = movetext(text);
    int lines = 0, longest = 0;
    for (const char *line = moves; *line && *line != '\n'; lines++) {
        const char *end = strchr(line, '\n');
        cr_assert_not_null(end);
        int len = (int)(end - line);
        longest = len > longest ? len : longest;
        cr_expect(len < 80, "line %d has %d columns: %.*s", lines + 1, len, len, line);
        cr_expect(len > 0 && line[0] != ' ' && line[len - 1] != ' ', "blank at a line end: '%.*s'", len, line);
        /* A move number is never left alone at a line end. */
        cr_expect(line[len - 1] != '.', "number split from its move: %.*s", len, line);
        line = end + 1;
    }
    cr_expect_gt(lines, 5);
    cr_expect_gt(longest, 70, "lines are filled (longest %d)", longest);
    /* Joined again, the words are the moves with their numbers in order. */
    char *words = strdup(moves), *save = NULL;
    int ply = 0;
    for (char *w = strtok_r(words, " \n", &save); w && w[0] != '{'; w = strtok_r(NULL, " \n", &save)) {
        if (ply % 2 == 0) {
            char number[16];
            snprintf(number, sizeof number, "%d.", ply / 2 + 1);
            cr_assert_str_eq(w, number);
            w = strtok_r(NULL, " \n", &save);
        }
        cr_assert_str_eq(w, g.moves[ply].san, "ply %d", ply);
        ply++;
    }
    cr_expect_eq(ply, gamelog_ply_count(&g));
    free(words);
    free(text);
    gamelog_free(&g);
}

Test(gamelog, a_game_longer_than_the_board_history)
{
    GameLog g = { 0 };
    start(&g, NULL);
    for (int i = 0; i < 400; i++)
        play(&g, "Nf3 Nf6 Ng1 Ng8");
    cr_expect_eq(gamelog_ply_count(&g), 1600);
    cr_expect(gamelog_finish_by_rules(&g));
    cr_expect_str_eq(g.reason, "Draw by fifty-move rule"); /* checked before repetition */
    cr_assert(gamelog_undo(&g));
    cr_expect_str_eq(g.moves[1598].san, "Ng1");
    char *text = gamelog_pgn(&g);
    cr_expect(strstr(text, "800. Ng1 *\n\n") != NULL, "%s", text + strlen(text) - 40);
    free(text);
    gamelog_free(&g);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot read %s", path);
    char *text = NULL;
    size_t size = 0;
    if (getdelim(&text, &size, '\0', f) < 0) {
        free(text);
        text = strdup(""); /* an empty file */
    }
    fclose(f);
    return text;
}

Test(gamelog, games_are_appended_to_a_file)
{
    char path[] = "/tmp/bachess-gamelog-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    unlink(path); /* the first append creates it */
    GameLog g = { 0 };
    start(&g, NULL);
    play(&g, "f3 e5 g4 Qh4");
    gamelog_finish_by_rules(&g);
    char error[256];
    cr_assert(gamelog_append_to_file(&g, path, error, sizeof error), "%s", error);
    char *first = gamelog_pgn(&g);
    start(&g, "4k3/8/8/8/8/8/4P3/4K3 b - - 3 12");
    play(&g, "Kd7");
    cr_assert(gamelog_append_to_file(&g, path, error, sizeof error), "%s", error);
    char *second = gamelog_pgn(&g);
    char *file = read_all(path);
    char *both = malloc(strlen(first) + strlen(second) + 1);
    strcpy(both, first);
    strcat(both, second);
    cr_expect_str_eq(file, both);
    free(file), free(both), free(first), free(second);
    unlink(path);
    cr_expect_not(gamelog_append_to_file(&g, "/nonexistent-dir/games.pgn", error, sizeof error));
    cr_expect(strstr(error, "/nonexistent-dir/games.pgn") != NULL, "%s", error);
    gamelog_free(&g);
}

static const char *pgn_extract(void)
{
    static const char *const places[] = { "/usr/games/pgn-extract", "/usr/bin/pgn-extract" };
    for (size_t i = 0; i < sizeof places / sizeof *places; i++)
        if (access(places[i], X_OK) == 0)
            return places[i];
    return NULL;
}

/* Debian's pgn-extract reads every game back, replaying the moves, and
 * says nothing in its log: no illegal move, no bad result, no syntax. */
Test(gamelog, pgn_extract_accepts_what_we_write)
{
    const char *tool = pgn_extract();
    if (!tool)
        cr_skip_test("pgn-extract is not installed (scripts/install-test-deps.sh installs it)");
    char dir[] = "/tmp/bachess-pgnx-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char in[128], out[128], log[128];
    snprintf(in, sizeof in, "%s/in.pgn", dir);
    snprintf(out, sizeof out, "%s/out.pgn", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    char error[256];
    GameLog g = { 0 };
    int games = 0;

    start(&g, NULL);
    play(&g, "f3 e5 g4 Qh4");
    gamelog_finish_by_rules(&g);
    cr_assert(gamelog_append_to_file(&g, in, error, sizeof error), "%s", error);
    games++;

    start(&g, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    play(&g, "O-O-O O-O Kb1 Rab8 dxe6 d5 exf7+ Rxf7 Nxf7 Kxf7");
    gamelog_finish(&g, RESULT_BLACK_WINS, "White resigns");
    cr_assert(gamelog_append_to_file(&g, in, error, sizeof error), "%s", error);
    games++;

    /* Promotions, en passant, and a long random game to the rules' end. */
    start(&g, "8/2P5/8/3pP3/8/8/5k1p/K7 w - d6 0 40");
    play(&g, "exd6 Kg1 c8=Q h1=N");
    cr_assert(gamelog_append_to_file(&g, in, error, sizeof error), "%s", error);
    games++;

    TestRng rng = { 99 };
    for (int game = 0; game < 4; game++) {
        start(&g, NULL);
        while (gamelog_ply_count(&g) < 600 && !gamelog_finish_by_rules(&g)) {
            MoveList list;
            generate_legal(gamelog_board(&g), &list);
            cr_assert(gamelog_add(&g, list.moves[rng_below(&rng, list.count)]));
        }
        cr_assert(gamelog_append_to_file(&g, in, error, sizeof error), "%s", error);
        games++;
    }
    gamelog_free(&g);

    char command[512];
    snprintf(command, sizeof command, "%s -s --nobadresults -l%s -o%s %s", tool, log, out, in);
    cr_assert_eq(system(command), 0, "%s failed", command);
    char *complaints = read_all(log);
    cr_expect(!complaints || !*complaints, "pgn-extract complained:\n%s", complaints);
    char *copied = read_all(out);
    int found = 0;
    for (const char *p = copied; (p = strstr(p, "[Event ")); p++)
        found++;
    cr_expect_eq(found, games, "pgn-extract kept %d of %d games", found, games);
    free(complaints), free(copied);
    snprintf(command, sizeof command, "rm -rf %s", dir);
    cr_expect_eq(system(command), 0);
}
