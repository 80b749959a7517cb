/*
 * test_notation.c — move text: SAN and coordinate notation out and back in.
 *
 * Every legal move of every position in the perft suites must print as
 * well-formed SAN with the right capture mark, promotion, check or mate
 * suffix and the shortest disambiguation that works, and both texts must
 * parse back to the same move. Then hand-made positions check each SAN rule
 * and the sloppy forms people type, and bad input must give MOVE_NONE.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "support.h"

TestSuite(notation, .init = board_init);

/* ---- every legal move, both notations ------------------------------------- */

/* Does m give check, or mate? Found by playing it. */
static const char *expected_suffix(Board *b, Move m)
{
    board_make_move(b, m);
    const char *suffix = "";
    if (board_in_check(b)) {
        MoveList replies;
        generate_legal(b, &replies);
        suffix = replies.count ? "+" : "#";
    }
    board_unmake_move(b);
    return suffix;
}

/* A SAN text cut into its parts: piece letter (or 0 for a pawn), the
 * disambiguation (from-file and/or from-rank, or the capturing pawn's file),
 * capture mark, destination, promotion letter and check suffix. */
typedef struct {
    char piece;
    char dis[3];
    bool capture;
    char dest[3];
    char promotion;
    char suffix[2];
} SanParts;

static bool split_san(const char *san, SanParts *p)
{
    memset(p, 0, sizeof *p);
    char core[MOVE_TEXT_SIZE];
    size_t len = strcspn(san, "+#");
    if (len >= sizeof core || strlen(san + len) > 1)
        return false;
    snprintf(p->suffix, sizeof p->suffix, "%s", san + len);
    snprintf(core, sizeof core, "%.*s", (int)len, san);
    if (len >= 2 && core[len - 2] == '=') {
        p->promotion = core[len - 1];
        len -= 2;
        core[len] = '\0';
    }
    if (len < 2 || core[len - 2] < 'a' || core[len - 2] > 'h' || core[len - 1] < '1' || core[len - 1] > '8')
        return false;
    memcpy(p->dest, core + len - 2, 2);
    len -= 2;
    if (len > 0 && core[len - 1] == 'x') {
        p->capture = true;
        len--;
    }
    size_t start = 0;
    if (len > 0 && strchr("NBRQK", core[0])) {
        p->piece = core[0];
        start = 1;
    }
    if (len - start > 2)
        return false;
    memcpy(p->dis, core + start, len - start);
    return true;
}

/* Checks the SAN text of m against the grammar and the facts of the move;
 * returns a description of the first problem, or NULL. */
static const char *san_problem(Board *b, Move m, const char *san)
{
    static char why[128];
    Square from = move_from(m), to = move_to(m);
    PieceType type = piece_type(board_piece_on(b, from));
    const char *suffix = expected_suffix(b, m);
    if (move_kind(m) == MOVE_CASTLING) {
        char want[MOVE_TEXT_SIZE];
        snprintf(want, sizeof want, "%s%s", square_file(to) == 6 ? "O-O" : "O-O-O", suffix);
        if (strcmp(san, want) != 0) {
            snprintf(why, sizeof why, "castling written \"%s\", expected \"%s\"", san, want);
            return why;
        }
        return NULL;
    }
    SanParts p;
    if (!split_san(san, &p))
        return "not well-formed SAN";
    if (strcmp(p.suffix, suffix) != 0) {
        snprintf(why, sizeof why, "suffix \"%s\", expected \"%s\"", p.suffix, suffix);
        return why;
    }
    if (p.dest[0] != 'a' + square_file(to) || p.dest[1] != '1' + square_rank(to))
        return "wrong destination square";
    if (p.capture != board_is_capture(b, m))
        return "capture mark 'x' wrong";
    char promotion = move_kind(m) == MOVE_PROMOTION ? "PNBRQK"[move_promotion(m)] : 0;
    if (p.promotion != promotion)
        return "promotion not written =N/=B/=R/=Q, or written for a non-promotion";
    if (type == PAWN) {
        if (p.piece)
            return "pawn move with a piece letter";
        char want[2] = { board_is_capture(b, m) ? (char)('a' + square_file(from)) : 0, 0 };
        if (strcmp(p.dis, want) != 0)
            return "pawn capture must start with its file, a push with nothing";
        return NULL;
    }
    if (p.piece != "PNBRQK"[type])
        return "wrong piece letter";
    for (const char *c = p.dis; *c; c++) {
        if (*c >= 'a' && *c <= 'h' && c == p.dis) {
            if (*c != 'a' + square_file(from))
                return "wrong disambiguating file";
        } else if (*c >= '1' && *c <= '8') {
            if (*c != '1' + square_rank(from))
                return "wrong disambiguating rank";
        } else {
            return "bad disambiguation";
        }
    }
    return NULL;
}

/* For a piece move with disambiguation, every shorter form must be ambiguous
 * (else the SAN is longer than needed). Returns a problem or NULL. */
static const char *disambiguation_problem(const Board *b, Move m, const char *san)
{
    SanParts p;
    if (move_kind(m) == MOVE_CASTLING || !split_san(san, &p) || !p.piece || !p.dis[0])
        return NULL;
    size_t dis = strlen(p.dis);
    for (unsigned keep = 0; keep < (1u << dis) - 1; keep++) { /* each proper subset */
        char shorter[MOVE_TEXT_SIZE];
        size_t n = 0;
        shorter[n++] = p.piece;
        for (size_t i = 0; i < dis; i++)
            if (keep & (1u << i))
                shorter[n++] = p.dis[i];
        snprintf(shorter + n, sizeof shorter - n, "%s%s", p.capture ? "x" : "", p.dest);
        if (move_from_san(b, shorter) == m)
            return "disambiguation longer than needed";
    }
    return NULL;
}

/* Checks every legal move of the position; returns the number of problems. */
static int check_position(Board *b, const char *where)
{
    MoveList list;
    generate_legal(b, &list);
    char sans[MAX_MOVES][MOVE_TEXT_SIZE];
    int problems = 0;
    char fen_before[128], fen_after[128];
    board_get_fen(b, fen_before, sizeof fen_before);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        char san[MOVE_TEXT_SIZE], coord[MOVE_TEXT_SIZE];
        move_to_san(b, m, san);
        move_to_coordinate(m, coord);
        snprintf(sans[i], MOVE_TEXT_SIZE, "%s", san);
        const char *why = san_problem(b, m, san);
        if (!why)
            why = disambiguation_problem(b, m, san);
        if (!why && move_from_san(b, san) != m)
            why = "move_from_san does not give the move back";
        if (!why && move_parse(b, san) != m)
            why = "move_parse does not give the move back from SAN";
        if (!why && move_from_coordinate(b, coord) != m)
            why = "move_from_coordinate does not give the move back";
        if (!why && move_parse(b, coord) != m)
            why = "move_parse does not give the move back from coordinates";
        if (!why) {
            /* without its check mark, SAN still names the move */
            char bare[MOVE_TEXT_SIZE];
            snprintf(bare, sizeof bare, "%.*s", (int)strcspn(san, "+#"), san);
            if (move_from_san(b, bare) != m)
                why = "SAN without its check suffix does not parse";
        }
        for (int j = 0; !why && j < i; j++)
            if (strcmp(sans[j], san) == 0)
                why = "two moves have the same SAN";
        board_get_fen(b, fen_after, sizeof fen_after);
        if (!why && strcmp(fen_before, fen_after) != 0)
            why = "move_to_san changed the board";
        if (why) {
            cr_log_error("%s: \"%s\": move %s / %s: %s", where, fen_before, coord, san, why);
            problems++;
        }
    }
    return problems;
}

static int check_file(const char *file, int max_positions, bool children)
{
    int count, problems = 0;
    EpdEntry *entries = epd_load(file, &count);
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    for (int i = 0; i < count && i < max_positions; i++) {
        char where[64];
        snprintf(where, sizeof where, "%s:%d", file, entries[i].line);
        board_load(b, entries[i].fen);
        problems += check_position(b, where);
        /* one ply deeper as well: more checks, mates and promotions */
        MoveList list;
        list.count = 0;
        if (children)
            generate_legal(b, &list);
        for (int j = 0; j < list.count && problems < 20; j++) {
            board_make_move(b, list.moves[j]);
            problems += check_position(b, where);
            board_unmake_move(b);
        }
    }
    free(b);
    free(entries);
    return problems;
}

Test(notation, every_move_round_trips_perft_suite)
{
    int problems = check_file("perft.epd", 1 << 30, true);
    cr_assert_eq(problems, 0, "%d notation problems (see the log above)", problems);
}

Test(notation, every_move_round_trips_marcel)
{
    int problems = check_file("perft_marcel.epd", test_light() ? 1000 : 1 << 30, false);
    cr_assert_eq(problems, 0, "%d notation problems (see the log above)", problems);
}

/* ---- SAN output, case by case --------------------------------------------- */

static void expect_san(const char *fen, const char *coord, const char *want)
{
    Board *b = board_from_fen(fen);
    Move m = move_from_coordinate(b, coord);
    cr_assert_neq(m, MOVE_NONE, "%s is not legal in %s", coord, fen);
    char san[MOVE_TEXT_SIZE];
    move_to_san(b, m, san);
    cr_expect_str_eq(san, want, "%s in %s: SAN %s, expected %s", coord, fen, san, want);
    cr_expect_eq(move_from_san(b, want), m, "%s does not parse back in %s", want, fen);
    free(b);
}

Test(notation, san_disambiguation)
{
    /* by file: knights on b1 and f3 both reach d2 */
    expect_san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2");
    expect_san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", "Nfd2");
    expect_san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1c3", "Nc3");
    /* by rank: knights on g1 and g5 both reach f3 */
    expect_san("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1", "g1f3", "N1f3");
    expect_san("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1", "g5f3", "N5f3");
    /* three queens on a1, a3 and c1 reach b2: both, rank only, file only */
    expect_san("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2");
    expect_san("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a3b2", "Q3b2");
    expect_san("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "c1b2", "Qcb2");
    /* captures keep the disambiguation before the x */
    expect_san("4k3/8/8/8/8/5N2/3p4/1N2K3 w - - 0 1", "b1d2", "Nbxd2");
    /* rooks on one rank and one file */
    expect_san("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1");
    expect_san("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "h1d1", "Rhd1");
    expect_san("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1d1", "Rd1"); /* the h1 rook is blocked */
    expect_san("4k3/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4", "R1a4");
    /* a pinned knight does not count as a rival: no disambiguation */
    expect_san("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1", "g1f3", "Nf3");
}

Test(notation, san_check_and_mate_suffixes)
{
    expect_san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#");
    expect_san("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+");
    expect_san("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", "Ra7");
    expect_san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+");
    expect_san("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+");
    expect_san("7k/4P3/6K1/8/8/8/8/8 w - - 0 1", "e7e8q", "e8=Q#");
    expect_san("7k/4P3/6K1/8/8/8/8/8 w - - 0 1", "e7e8r", "e8=R#");
    expect_san("7k/4P3/6K1/8/8/8/8/8 w - - 0 1", "e7e8b", "e8=B");
    /* a discovered check by an e.p. capture */
    expect_san("8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6+");
    expect_san("8/2N5/8/k2pP2R/8/2N5/8/1R4K1 w - d6 0 2", "e5d6", "exd6#");
}

Test(notation, san_castling_promotion_en_passant)
{
    expect_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O");
    expect_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O");
    expect_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "O-O");
    expect_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O");
    expect_san("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q");
    expect_san("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8n", "e8=N");
    expect_san("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8q", "exd8=Q");
    expect_san("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8r", "exd8=R");
    expect_san("4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1", "b2a1q", "bxa1=Q+");
    expect_san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6");
    expect_san(START_FEN, "e2e4", "e4");
    expect_san(START_FEN, "g1f3", "Nf3");
}

/* ---- SAN input, sloppy forms ---------------------------------------------- */

/* `text` must parse (SAN and move_parse) to the move given in coordinates. */
static void expect_parse(const char *fen, const char *text, const char *coord)
{
    Board *b = board_from_fen(fen);
    Move want = move_from_coordinate(b, coord);
    cr_assert_neq(want, MOVE_NONE, "%s is not legal in %s", coord, fen);
    cr_expect_eq(move_from_san(b, text), want, "move_from_san(\"%s\") is not %s in %s", text, coord, fen);
    cr_expect_eq(move_parse(b, text), want, "move_parse(\"%s\") is not %s in %s", text, coord, fen);
    free(b);
}

/* Coordinate text that move_parse must read as the move. */
static void expect_parse_coordinate(const char *fen, const char *text, const char *coord)
{
    Board *b = board_from_fen(fen);
    Move want = move_from_coordinate(b, coord);
    cr_assert_neq(want, MOVE_NONE, "%s is not legal in %s", coord, fen);
    cr_expect_eq(move_parse(b, text), want, "move_parse(\"%s\") is not %s in %s", text, coord, fen);
    free(b);
}

/* `text` must be refused by move_from_san and move_parse. */
static void expect_reject(const char *fen, const char *text)
{
    Board *b = board_from_fen(fen);
    char before[128], after[128];
    board_get_fen(b, before, sizeof before);
    cr_expect_eq(move_from_san(b, text), MOVE_NONE, "move_from_san accepted \"%s\" in %s", text, fen);
    cr_expect_eq(move_parse(b, text), MOVE_NONE, "move_parse accepted \"%s\" in %s", text, fen);
    cr_expect_eq(move_from_coordinate(b, text), MOVE_NONE, "move_from_coordinate accepted \"%s\" in %s", text, fen);
    board_get_fen(b, after, sizeof after);
    cr_expect_str_eq(before, after, "parsing \"%s\" changed the board", text);
    free(b);
}

#define CASTLE_FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define PROMO_FEN "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1"
#define EP_FEN "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"

Test(notation, sloppy_san_accepted)
{
    expect_parse(PROMO_FEN, "e8=Q", "e7e8q");
    expect_parse(PROMO_FEN, "e8Q", "e7e8q");
    expect_parse(PROMO_FEN, "e8q", "e7e8q");
    expect_parse(PROMO_FEN, "e8N", "e7e8n");
    expect_parse(PROMO_FEN, "e8=R+", "e7e8r");
    expect_parse(PROMO_FEN, "exd8=Q", "e7d8q");
    expect_parse(PROMO_FEN, "exd8Q", "e7d8q");
    expect_parse(PROMO_FEN, "ed8=Q", "e7d8q");
    expect_parse(PROMO_FEN, "ed8B", "e7d8b");
    expect_parse_coordinate(PROMO_FEN, "e7e8Q", "e7e8q"); /* a capital promotion letter */
    expect_parse(CASTLE_FEN, "O-O", "e1g1");
    expect_parse(CASTLE_FEN, "O-O-O", "e1c1");
    expect_parse(CASTLE_FEN, "0-0", "e1g1");
    expect_parse(CASTLE_FEN, "0-0-0", "e1c1");
    expect_parse(CASTLE_FEN, "O-O+", "e1g1");
    expect_parse_coordinate(CASTLE_FEN, "e1g1", "e1g1");
    expect_parse_coordinate(CASTLE_FEN, "e1c1", "e1c1");
    expect_parse(EP_FEN, "exd6e.p.", "e5d6");
    expect_parse(EP_FEN, "exd6", "e5d6");
    expect_parse(EP_FEN, "ed6", "e5d6");
    expect_parse(EP_FEN, "e5d6", "e5d6");
    expect_parse(START_FEN, "Ng1f3", "g1f3");
    expect_parse(START_FEN, "Ng1-f3", "g1f3");
    expect_parse(START_FEN, "Pe4", "e2e4");
    expect_parse(START_FEN, "e2-e4", "e2e4");
    expect_parse(START_FEN, "e2e4", "e2e4");
    expect_parse(START_FEN, "Nf3!", "g1f3");
    expect_parse(START_FEN, "Nf3?!", "g1f3");
    expect_parse(START_FEN, "Nf3+", "g1f3"); /* a superfluous check mark */
    expect_parse(START_FEN, "Ngf3", "g1f3"); /* a superfluous disambiguation */
    expect_parse(START_FEN, "Nxf3", "g1f3"); /* a superfluous x */
    /* missing x: piece and pawn captures */
    expect_parse("4k3/8/8/3p4/4P3/5N2/8/4K3 w - - 0 1", "Nd4", "f3d4");
    expect_parse("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "ed5", "e4d5");
    expect_parse("4k3/8/8/3n4/8/5N2/8/4K3 w - - 0 1", "Nd4", "f3d4");
    expect_parse("4k3/8/8/3n4/8/5N2/8/4K3 w - - 0 1", "Nxd4", "f3d4");
    expect_parse("4k3/8/8/8/5n2/5N2/8/4K3 w - - 0 1", "Nd4", "f3d4");
    /* lowercase b is the b-pawn, capital B the bishop */
    expect_parse("4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1", "bc4", "b3c4");
    expect_parse("4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1", "bxc4", "b3c4");
    expect_parse("4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1", "Bc4", "f1c4");
    expect_parse("4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1", "Bxc4", "f1c4");
}

Test(notation, bad_input_rejected)
{
    static const char *GARBLED[] = {
        "", " ", "x", "e", "4", "e9", "i4", "e0", "Zf3", "Nf9", "N", "Nf", "=Q", "O", "O-", "O-O-O-O", "OOOO", "e4e4",
        "e2e5", "e2e4e4", "e2e4q", "E2E4", "Nh3h3", "Ng1f3f3", "0000", "--", "Kf2", "Ke2", "Qd4", "Bb5",
        "e5", "a6", "Nf5", "Ng3", "Nd2", "O-O", "O-O-O", "exd3", "Nxf4", "Pe5", "Ph3h4", "e2", "de4", "K", "Rg1",
        "Ng1xh3+=Q", "e4=Q", "Ne2", "g1f3q", "12345", "e2e4 ", " e2e4",
        "Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3",
    };
    for (size_t i = 0; i < sizeof GARBLED / sizeof GARBLED[0]; i++)
        expect_reject(START_FEN, GARBLED[i]);

    /* promotions: a piece must be named, and only N, B, R or Q */
    expect_reject(PROMO_FEN, "e8");
    expect_reject(PROMO_FEN, "e7e8");
    expect_reject(PROMO_FEN, "e8=K");
    expect_reject(PROMO_FEN, "e8=P");
    expect_reject(PROMO_FEN, "e7e8k");
    expect_reject(PROMO_FEN, "e7e8p");
    expect_reject(PROMO_FEN, "exd8");
    expect_reject(PROMO_FEN, "Ke2=Q");
    /* ambiguous: two knights reach d2, two rooks reach d1 */
    expect_reject("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2");
    expect_reject("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1");
    expect_reject("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "Qb2");
    expect_reject("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "Qab2");
    expect_reject("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "Q1b2");
    /* e.p. where none is possible, castling without the right or through check */
    expect_reject("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2", "exd6");
    expect_reject("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2", "exd6e.p.");
    expect_reject("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O");
    expect_reject("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "e1g1");
    expect_reject("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O");
    /* a pinned piece may not move off its line */
    expect_reject("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3");
    /* moves of the wrong side */
    expect_reject(START_FEN, "e5");
    expect_reject(START_FEN, "Nf6");
    expect_reject(START_FEN, "e7e5");
}

Test(notation, move_text_out)
{
    char text[MOVE_TEXT_SIZE];
    move_to_coordinate(MOVE_NULL, text);
    cr_expect_str_eq(text, "0000");
    move_to_coordinate(MOVE_NONE, text);
    cr_expect_str_eq(text, "0000");
    move_to_coordinate(make_move(E2, E4), text);
    cr_expect_str_eq(text, "e2e4");
    move_to_coordinate(make_special(A7, B8, MOVE_PROMOTION, KNIGHT), text);
    cr_expect_str_eq(text, "a7b8n");
    move_to_coordinate(make_special(E8, C8, MOVE_CASTLING, KNIGHT), text);
    cr_expect_str_eq(text, "e8c8");
    square_to_text(H8, text);
    cr_expect_str_eq(text, "h8");
    square_to_text(A1, text);
    cr_expect_str_eq(text, "a1");
}
