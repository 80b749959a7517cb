/*
 * test_xboard.c — the XBoard front end's pieces that need no GUI: time
 * controls (level/st/sd/nps/time and the limits made of them), the option
 * table as CECP features and `option NAME=VALUE`, the result claims XBoard
 * will accept, and a few commands
 * answered at once, read back from stdout. The whole dialogue with a
 * searching engine is tested through pipes (tests/conformance/cecp_test.py).
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine_options.h"
#include "engine_settings.h"
#include "movegen.h"
#include "options.h"
#include "protocol/frontend_options.h"
#include "protocol/xboard.h"
#include "protocol/xboard_claims.h"
#include "protocol/xboard_clock.h"
#include "support.h"

static void setup(void)
{
    board_init();
}

TestSuite(xboard_clock, .init = setup);

static bool level(XboardClock *c, const char *mps, const char *base, const char *inc)
{
    char why[128];
    return xboard_clock_level(c, mps, base, inc, why, sizeof why);
}

Test(xboard_clock, level_reads_minutes_seconds_and_fractions)
{
    XboardClock c;
    xboard_clock_init(&c);
    cr_assert(level(&c, "40", "0:30", "0"));
    cr_expect_eq(c.mps, 40);
    cr_expect_eq(c.base_ms, 30000);
    cr_expect_eq(c.inc_ms, 0);
    cr_assert(level(&c, "0", "2", "12"));
    cr_expect_eq(c.base_ms, 120000);
    cr_expect_eq(c.inc_ms, 12000);
    cr_assert(level(&c, "0", "0:10", "0.1"));
    cr_expect_eq(c.base_ms, 10000);
    cr_expect_eq(c.inc_ms, 100);
    cr_expect_eq(c.own_ms, 10000, "a level starts a fresh period");
    cr_assert(level(&c, "0", "5+3", "0"), "trailing junk after BASE is ignored");
    cr_expect_eq(c.base_ms, 300000);
    cr_assert(level(&c, "0", "0", "1"), "increment only");
}

Test(xboard_clock, level_refuses_nonsense_and_keeps_the_old_control)
{
    XboardClock c;
    xboard_clock_init(&c);
    cr_assert(level(&c, "40", "5", "0"));
    const char *bad[][3] = { { "0", "0", "0" }, { "-1", "5", "0" }, { "40", "-5", "0" }, { "40", "5", "-1" },
                             { "x", "5", "0" }, { "40", "nan", "0" }, { "40", "inf", "0" }, { "40", "5", "1e999" },
                             { "40", "1e30", "0" }, { "40", "5:-3", "0" }, { "40", "", "0" } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect(!level(&c, bad[i][0], bad[i][1], bad[i][2]), "level %s %s %s", bad[i][0], bad[i][1], bad[i][2]);
    char why[128];
    cr_expect(!xboard_clock_level(&c, "40", NULL, NULL, why, sizeof why));
    cr_expect_eq(c.mps, 40);
    cr_expect_eq(c.base_ms, 300000);
}

Test(xboard_clock, st_sd_nps_time_units)
{
    XboardClock c;
    char why[128];
    xboard_clock_init(&c);
    cr_assert(xboard_clock_st(&c, "5", why, sizeof why));
    cr_expect_eq(c.st_ms, 5000, "st is seconds");
    cr_expect(!xboard_clock_st(&c, "0", why, sizeof why));
    cr_expect(!xboard_clock_st(&c, "-1", why, sizeof why));
    cr_assert(xboard_clock_sd(&c, "3", why, sizeof why));
    cr_expect_eq(c.sd, 3);
    cr_assert(xboard_clock_sd(&c, "5000", why, sizeof why));
    cr_expect_lt(c.sd, MAX_PLY);
    cr_expect(!xboard_clock_sd(&c, "0", why, sizeof why));
    cr_assert(xboard_clock_nps(&c, "1000", why, sizeof why));
    cr_expect_eq(c.nps, 1000);
    cr_expect(!xboard_clock_nps(&c, "-5", why, sizeof why));
    cr_assert(xboard_clock_time(&c, true, "1000", why, sizeof why));
    cr_expect_eq(c.own_ms, 10000, "time is centiseconds");
    cr_assert(xboard_clock_time(&c, false, "250", why, sizeof why));
    cr_expect_eq(c.opp_ms, 2500);
    cr_expect(!xboard_clock_time(&c, true, "-5", why, sizeof why));
    cr_expect_eq(c.own_ms, 0, "a negative clock counts as empty");
    cr_expect(!xboard_clock_time(&c, true, "12abc", why, sizeof why));
    xboard_clock_new_game(&c);
    cr_expect_eq(c.sd, 0, "new forgets sd");
    cr_expect_eq(c.nps, 0, "new forgets nps");
}

Test(xboard_clock, limits_for_the_side_to_move)
{
    XboardClock c;
    char why[128];
    xboard_clock_init(&c);
    cr_assert(level(&c, "40", "5", "2"));
    cr_assert(xboard_clock_time(&c, true, "6000", why, sizeof why));
    cr_assert(xboard_clock_time(&c, false, "4000", why, sizeof why));
    Board *b = board_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    SearchLimits l;
    xboard_clock_limits(&c, b, &l);
    cr_expect_eq(l.time[BLACK], 60000, "the engine's clock belongs to the side to move");
    cr_expect_eq(l.time[WHITE], 40000);
    cr_expect_eq(l.inc[BLACK], 2000);
    cr_expect_eq(l.moves_to_go, 40);
    board_load(b, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 45");
    xboard_clock_limits(&c, b, &l);
    cr_expect_eq(l.moves_to_go, 36, "move 45 of a 40-move period: 36 to go");
    cr_assert(xboard_clock_st(&c, "3", why, sizeof why));
    cr_assert(xboard_clock_sd(&c, "7", why, sizeof why));
    xboard_clock_limits(&c, b, &l);
    cr_expect_eq(l.move_time, 3000);
    cr_expect_eq(l.depth, 7);
    cr_expect_lt(l.time[BLACK], 0, "st replaces the clock");
    cr_assert(xboard_clock_nps(&c, "1000", why, sizeof why));
    xboard_clock_limits(&c, b, &l);
    cr_expect_eq(l.nodes, 3000, "nps 1000 and st 3: 3000 nodes");
    cr_expect_eq(l.move_time, 0, "no wall-clock limit in nps mode");
    cr_expect_eq(xboard_clock_shown_cs(1000, 3000, 12), 300, "time shown from nodes in nps mode");
    cr_expect_eq(xboard_clock_shown_cs(0, 3000, 1234), 123);
    free(b);
}

Test(xboard_clock, own_clock_kept_between_time_commands)
{
    XboardClock c;
    xboard_clock_init(&c);
    cr_assert(level(&c, "2", "1", "0.5"));
    Board *b = board_from_fen(START_FEN);
    xboard_clock_spent(&c, b, 10000);
    cr_expect_eq(c.own_ms, 60000 - 10000 + 500);
    board_load(b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
    xboard_clock_spent(&c, b, 500);
    cr_expect_eq(c.own_ms, 50500 + 60000, "the second move of a 2-move period adds a new period");
    free(b);
}

/* The option table as the engine and the front ends register it. */
static void options_setup(void)
{
    setup();
    engine_init();
    engine_register_options();
    frontend_register_options();
    frontend_register_options();
}

TestSuite(xboard_options, .init = options_setup, .fini = engine_quit);

/* The lines the option table describes itself in, joined with newlines. */
static char described[16384];
static void collect_line(const char *line)
{
    size_t used = strlen(described);
    snprintf(described + used, sizeof described - used, "%s\n", line);
}

Test(xboard_options, features_for_every_type)
{
    described[0] = '\0';
    options_describe_xboard(collect_line);
    char *text = described;
    cr_expect(strstr(text, "feature option=\"MultiPV -spin 1 1 64\"\n"));
    cr_expect(strstr(text, "feature option=\"NullMove -check 1\"\n"));
    cr_expect(strstr(text, "feature option=\"Clear Hash -button\"\n"));
    cr_expect(strstr(text, "feature option=\"SearchAlgorithm -combo *PVS /// AlphaBeta /// MTDf\"\n"));
    cr_expect(strstr(text, "feature option=\"ResignScore -spin 0 0 10000\"\n"));
    cr_expect(!strstr(text, "\"Hash "), "memory sets the hash in CECP");
    cr_expect(!strstr(text, "\"Threads "), "cores sets the threads in CECP");
    cr_expect(!strstr(text, "\"Ponder "), "hard/easy set pondering in CECP");
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        cr_expect(strncmp(line, "feature option=\"", 16) == 0 && line[strlen(line) - 1] == '"', "%s", line);
}

Test(xboard_options, uci_list_leaves_out_cecp_only_options)
{
    described[0] = '\0';
    options_describe_uci(collect_line);
    cr_expect(!strstr(described, "ResignScore"));
    cr_expect(strstr(described, "option name Hash type spin"));
}

Test(xboard_options, option_name_equals_value)
{
    char error[256];
    cr_assert(option_set_assignment("MultiPV=3", error, sizeof error), "%s", error);
    cr_expect_eq(option_find("MultiPV")->value, 3);
    cr_expect_eq(engine_settings.multipv, 3, "the engine's setting follows the table");
    cr_assert(option_set_assignment("Move Overhead=50", error, sizeof error), "%s", error);
    cr_expect_eq(engine_settings.move_overhead_ms, 50);
    cr_assert(option_set_assignment("NullMove=0", error, sizeof error), "%s", error);
    cr_expect_eq(option_find("NullMove")->value, 0);
    cr_expect(!search_options.null_move, "the search switch follows the table");
    cr_assert(option_set_assignment("SearchAlgorithm=MTDf", error, sizeof error), "%s", error);
    cr_expect(!option_set_assignment("MultiPV=0", error, sizeof error));
    cr_expect(!option_set_assignment("NoSuchOption=1", error, sizeof error));
    cr_expect(!option_set_assignment("MultiPV", error, sizeof error), "a spin needs a value");
}

TestSuite(xboard_claims, .init = setup);

static void expect_claim(const char *fen, const char *moves, const char *want)
{
    Board *b = board_from_fen(fen);
    if (moves)
        board_play(b, moves);
    const char *got = claim_game_end(b);
    if (want)
        cr_expect(got && strcmp(got, want) == 0, "%s + %s: claim %s, want %s", fen, moves ? moves : "", got ? got : "none", want);
    else
        cr_expect(!got, "%s + %s: claim %s, want none", fen, moves ? moves : "", got);
    free(b);
}

Test(xboard_claims, rules_ends)
{
    expect_claim("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", "Ra8", "1-0 {White mates}");
    expect_claim(START_FEN, "f3 e5 g4 Qh4", "0-1 {Black mates}");
    expect_claim("7k/5P1p/7P/8/8/8/1q6/K7 w - - 0 1", "Kxb2", "1/2-1/2 {Stalemate}");
    expect_claim("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "Ra2", "1/2-1/2 {Draw by fifty move rule}");
    expect_claim("4k3/8/8/8/8/8/3q4/3QK3 w - - 99 80", "Qxd2", NULL);
    expect_claim(START_FEN, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", NULL);
    expect_claim(START_FEN, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", "1/2-1/2 {Draw by repetition}");
    cr_expect(claim_is_offerable_draw("1/2-1/2 {Draw by repetition}"));
    cr_expect(!claim_is_offerable_draw("1/2-1/2 {Stalemate}"));
    cr_expect(!claim_is_offerable_draw("1-0 {White mates}"));
    cr_expect(!claim_is_offerable_draw(NULL));
}

Test(xboard_claims, insufficient_material_only_as_xboard_sees_it)
{
    expect_claim("8/8/4k3/8/8/3K4/8/8 w - - 0 1", NULL, "1/2-1/2 {Insufficient material}");
    expect_claim("8/8/4k3/8/8/3K4/8/6N1 w - - 0 1", NULL, "1/2-1/2 {Insufficient material}");
    expect_claim("8/8/4k3/8/2b5/3K4/8/5B2 w - - 0 1", NULL, "1/2-1/2 {Insufficient material}"); /* same colour */
    expect_claim("8/8/4k3/8/3b4/3K4/8/5B2 w - - 0 1", NULL, NULL);     /* opposite colours */
    expect_claim("8/8/4k3/8/8/3K4/8/1NN5 w - - 0 1", NULL, NULL);      /* KNN v K */
    expect_claim("8/8/4k3/8/8/3K4/n7/2B5 w - - 0 1", NULL, NULL);      /* KB v KN */
    expect_claim("8/8/4k3/8/8/3K4/4B3/5B2 w - - 0 1", NULL, NULL);     /* dead by the laws, not for xboard */
}

/* Right after e2e4 xboard keeps an e.p. square (a black pawn stands next
 * to it) although the capture is illegal (the pawn is pinned): for xboard
 * that first position is different, so the claim waits one repetition. */
Test(xboard_claims, repetition_counted_as_xboard_counts)
{
    const char *fen = "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1";
    Board *b = board_from_fen(fen);
    board_play(b, "e4 Ka5 Kd1 Ka4 Ke1 Ka5 Kd1 Ka4 Ke1");
    cr_expect_eq(game_status(b), GAME_THREEFOLD, "the laws: a third occurrence");
    cr_expect(!claim_repetition(b), "xboard: only the second");
    board_play(b, "Ka5 Kd1 Ka4 Ke1");
    cr_expect(claim_repetition(b));
    free(b);
}

/* ---- commands answered at once ------------------------------------------- */

static void engine_setup(void)
{
    setup();
    engine_init();
    engine_register_options();
    frontend_register_options();
    cr_redirect_stdout();
}

TestSuite(xboard_commands, .init = engine_setup, .fini = engine_quit, .timeout = 30);

static void send(const char *text)
{
    char *line = strdup(text);
    cr_assert(xboard_command(line), "%s ended the dialogue", text);
    free(line);
}

Test(xboard_commands, replies_in_protocol_form)
{
    const char *lines[] = {
        "xboard", "new", "force", "usermove e2e5", "usermove e2e4", "e7e5", "ping 4", "joho debug on",
        "level 0 0 0", "variant suicide", "remove", "remove", "usermove e2e4", "ping 5",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        send(lines[i]);
    fflush(stdout);
    cr_assert_stdout_eq_str("Illegal move (not a legal move): e2e5\n"
                            "pong 4\n"
                            "Error (unknown command): joho\n"
                            "Error (no thinking allowed by this control): level 0 0 0\n"
                            "Error (unsupported variant): suicide\n"
                            "Error (no move to undo): remove\n"
                            "pong 5\n");
}
