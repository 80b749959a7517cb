/* book_cmd.c — the `bachess book …` sub-commands: build, probe, key, info,
 * dump, walk (a book against the games it came from) and read (a PGN file
 * checked and, if asked, written back in export format). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "games/book.h"
#include "games/pgn.h"
#include "games/polyglot.h"
#include "movegen.h"
#include "notation.h"
#include "tokens.h"
#include "tools/book_cmd.h"

static void book_usage(void)
{
    fputs("usage:\n"
          "  bachess book build GAMES.pgn -o BOOK.bin [--max-ply N] [--min-games N]\n"
          "                     [--results win,draw,loss,unknown|all] [--weight score|games]\n"
          "                     [--quiet]\n"
          "      a Polyglot book from the games: weight 2 x wins + draws of the side to move;\n"
          "      default --max-ply 20 --min-games 3 --results win,draw (the winners' and drawn moves)\n"
          "  bachess book probe [--book BOOK.bin] [FEN | startpos] [--moves M1 M2 ...]\n"
          "      the book moves of a position with their weights (default: the built-in book)\n"
          "  bachess book key [FEN]          the Polyglot key of a position\n"
          "  bachess book info BOOK.bin      check a book file; entries and positions\n"
          "  bachess book dump BOOK.bin      every entry: key, move, weight, learn\n"
          "  bachess book walk BOOK.bin GAMES.pgn [--max-ply N]\n"
          "      every position of the games that the book holds, with its moves and weights\n"
          "  bachess book read GAMES.pgn [-o OUT.pgn] [--quiet]\n"
          "      read a PGN file: bad games with number and line; counts; write the good games\n",
          stderr);
}

static bool parse_results(const char *text, unsigned *out)
{
    if (!text)
        return false;
    if (strcasecmp(text, "all") == 0)
        return (*out = BOOK_ALL_RESULTS), true;
    static const struct { const char *name; unsigned bit; } NAMES[] = {
        { "win", BOOK_WIN }, { "draw", BOOK_DRAW }, { "loss", BOOK_LOSS }, { "unknown", BOOK_UNKNOWN },
    };
    unsigned bits = 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save = NULL, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < 4 && strcasecmp(w, NAMES[i].name) != 0)
            i++;
        if (i == 4)
            return false;
        bits |= NAMES[i].bit;
    }
    *out = bits;
    return bits != 0;
}

/* Prints what was wrong (if anything is named) and the usage; the exit
 * status of a sub-command called the wrong way. */
static int usage_error(const char *command, const char *argument)
{
    if (command && argument)
        fprintf(stderr, "%s: bad or incomplete argument '%s'\n", command, argument);
    book_usage();
    return 2;
}

static int cmd_build(int argc, char **argv)
{
    BookBuildOptions o;
    book_build_defaults(&o);
    o.progress = stderr;
    const char *pgn = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
            out = v, i++, ok = v != NULL;
        else if (strcmp(a, "--max-ply") == 0)
            ok = parse_int_in(v, 1, 1000, &o.max_ply), i++;
        else if (strcmp(a, "--min-games") == 0)
            ok = parse_int_in(v, 1, 1000000, &o.min_games), i++;
        else if (strcmp(a, "--results") == 0)
            ok = parse_results(v, &o.results), i++;
        else if (strcmp(a, "--weight") == 0) {
            ok = v && (strcmp(v, "score") == 0 || strcmp(v, "games") == 0);
            o.weight_games = ok && strcmp(v, "games") == 0;
            i++;
        } else if (strcmp(a, "--quiet") == 0)
            o.progress = NULL;
        else if (a[0] != '-' && !pgn)
            pgn = a;
        else
            ok = false;
        if (!ok)
            return usage_error("book build", a);
    }
    if (!pgn || !out)
        return usage_error(NULL, NULL);
    Book book;
    BookBuildStats s;
    char error[256];
    if (!book_build(pgn, &o, &book, &s, error, sizeof error)) {
        fprintf(stderr, "book build: %s\n", error);
        return 1;
    }
    bool ok = true;
    if (!book_write_file(&book, out, error, sizeof error)) {
        fprintf(stderr, "book build: %s\n", error);
        ok = false;
    }
    printf("games: %ld (%ld unreadable, skipped; %ld without an end marker)\n", s.games, s.bad_games, s.truncated_games);
    printf("games counted: %ld\n", s.used_games);
    printf("positions: %ld looked at (first %d plies), %ld in the book\n", s.positions, o.max_ply, s.distinct_positions);
    printf("entries: %ld (of %ld different moves seen), %ld bytes\n", s.entries, s.candidates, s.entries * 16);
    book_free(&book);
    return ok ? 0 : 1;
}

/* FEN words up to the next option, or "startpos", or nothing: the start. */
static int gather_fen(int argc, char **argv, int i, char *fen, size_t size)
{
    snprintf(fen, size, "%s", START_FEN);
    if (i < argc && strcmp(argv[i], "startpos") == 0)
        return i + 1;
    size_t used = 0;
    for (; i < argc && strncmp(argv[i], "--", 2) != 0; i++)
        used += (size_t)snprintf(fen + used, used < size ? size - used : 0, "%s%s", used ? " " : "", argv[i]);
    return i;
}

static bool open_book(const char *path, Book *book)
{
    char error[300];
    if (!path) {
        book_use_default(book);
        return true;
    }
    if (book_load_file(book, path, error, sizeof error))
        return true;
    fprintf(stderr, "%s\n", error);
    return false;
}

static int cmd_probe(int argc, char **argv)
{
    const char *path = NULL;
    char fen[512];
    int i = 0;
    if (i + 1 < argc && strcmp(argv[i], "--book") == 0)
        path = argv[i + 1], i += 2;
    i = gather_fen(argc, argv, i, fen, sizeof fen);
    Board *b = malloc(sizeof *b);
    char error[300];
    Key key;
    if (!b || !board_set_fen(b, fen, error, sizeof error) || !polyglot_key_of_fen(fen, &key, error, sizeof error)) {
        fprintf(stderr, "book probe: %s\n", b ? error : "out of memory");
        free(b);
        return 1;
    }
    bool ok = true;
    if (i < argc && strcmp(argv[i], "--moves") == 0) {
        for (i++; i < argc && ok; i++) {
            Move m = move_parse(b, argv[i]);
            if (m == MOVE_NONE) {
                fprintf(stderr, "book probe: '%s' is not a legal move here\n", argv[i]);
                ok = false;
            } else {
                board_make_move(b, m);
                key = polyglot_key(b);
            }
        }
    } else if (i < argc) {
        fprintf(stderr, "book probe: unexpected '%s'\n", argv[i]);
        ok = false;
    }
    Book book;
    if (!ok || !open_book(path, &book)) {
        free(b);
        return 1;
    }
    BookMove moves[MAX_MOVES];
    int rejected;
    int count = book_probe_key(&book, key, b, moves, MAX_MOVES, &rejected);
    uint64_t total = 0;
    for (int k = 0; k < count; k++)
        total += moves[k].weight;
    printf("key %016llx: %d book move%s\n", (unsigned long long)key, count, count == 1 ? "" : "s");
    for (int k = 0; k < count; k++) {
        char coord[MOVE_TEXT_SIZE], san[MOVE_TEXT_SIZE];
        move_to_coordinate(moves[k].move, coord);
        move_to_san(b, moves[k].move, san);
        printf("%-6s %-8s weight %5u  %5.1f%%\n", coord, san, moves[k].weight,
               total ? 100.0 * moves[k].weight / (double)total : 0.0);
    }
    if (rejected)
        printf("%d entr%s of this key %s no legal move here (ignored)\n", rejected, rejected == 1 ? "y" : "ies",
               rejected == 1 ? "is" : "are");
    book_free(&book);
    free(b);
    return 0;
}

static int cmd_key(int argc, char **argv)
{
    char fen[512], error[200];
    gather_fen(argc, argv, 0, fen, sizeof fen);
    Key key;
    if (!polyglot_key_of_fen(fen, &key, error, sizeof error)) {
        fprintf(stderr, "book key: %s\n", error);
        return 1;
    }
    printf("%016llx\n", (unsigned long long)key);
    return 0;
}

static int cmd_info(int argc, char **argv, bool dump)
{
    if (argc != 1)
        return usage_error(NULL, NULL);
    Book book;
    if (!open_book(argv[0], &book))
        return 1;
    if (dump) {
        for (size_t i = 0; i < book.count; i++) {
            char text[8];
            polyglot_move_text(book.entries[i].move, text);
            printf("%016llx %s %u %lu\n", (unsigned long long)book.entries[i].key, text, book.entries[i].weight,
                   (unsigned long)book.entries[i].learn);
        }
    } else {
        printf("%s: a valid Polyglot book: %zu entries, %zu positions, %zu bytes\n", argv[0], book.count,
               book_positions(&book), book.count * 16);
    }
    book_free(&book);
    return 0;
}

static int weight_then_text(const void *a, const void *b)
{
    const BookMove *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight > y->weight ? -1 : 1;
    return (int)x->code - (int)y->code;
}

/* The next game of the file that could be read, or NULL at its end. Each
 * unreadable game is counted in *bad and, unless quiet, reported with its
 * number and line; *games counts both kinds. */
static const PgnGame *next_readable_game(PgnReader *r, const char *path, bool quiet, long *games, long *bad)
{
    const PgnGame *g;
    PgnError e;
    PgnStatus status;
    while ((status = pgn_next(r, &g, &e)) != PGN_END) {
        ++*games;
        if (status != PGN_BAD_GAME)
            return g;
        ++*bad;
        if (!quiet)
            fprintf(stderr, "%s: game %d, line %d: %s (skipped)\n", path, e.game, e.line, e.message);
    }
    return NULL;
}

/* One line of `book walk`: the key, the FEN, and the book's legal moves
 * with their weights, heaviest first. Returns the entries that name no
 * legal move here. */
static int print_book_position(const Book *book, Key key, const Board *b)
{
    BookMove moves[MAX_MOVES];
    int rejected;
    int n = book_probe_key(book, key, b, moves, MAX_MOVES, &rejected);
    qsort(moves, (size_t)n, sizeof *moves, weight_then_text);
    char fen[128];
    board_get_fen(b, fen, sizeof fen);
    printf("%016llx %s:", (unsigned long long)key, fen);
    for (int k = 0; k < n; k++) {
        char text[MOVE_TEXT_SIZE];
        move_to_coordinate(moves[k].move, text);
        printf(" %s %u", text, moves[k].weight);
    }
    printf("\n");
    return rejected;
}

/* What `book walk` counts over all the games it reads. */
typedef struct {
    long games, bad, positions, found, illegal, reached_count;
} WalkCounts;

/* The positions of one game, up to max_ply, looked up in the book; a key
 * whose entries were reached before is not shown again. */
static void walk_game(const Book *book, const PgnGame *g, int max_ply, Board *b, bool *reached, WalkCounts *c)
{
    char error[300];
    Key key;
    if (!board_set_fen(b, g->fen, error, sizeof error) || !polyglot_key_of_fen(g->fen, &key, error, sizeof error))
        return;
    int last_ply = g->move_count < max_ply ? g->move_count : max_ply;
    for (int ply = 0;; ply++) {
        c->positions++;
        size_t first, count = book_find(book, key, &first);
        if (count && !reached[first]) {
            c->illegal += print_book_position(book, key, b);
            c->found++;
            for (size_t k = 0; k < count; k++)
                reached[first + k] = true;
            c->reached_count += (long)count;
        }
        if (ply == last_ply)
            break;
        board_make_move(b, g->moves[ply]);
        board_trim_history(b);
        key = polyglot_key(b);
    }
}

/* Every position of the games (first N plies) looked up in the book: the
 * book's view of the positions it came from. Each key is shown once. */
static int cmd_walk(int argc, char **argv)
{
    int max_ply = 1000;
    if (argc == 4 && strcmp(argv[2], "--max-ply") == 0 && parse_int_in(argv[3], 1, 1000, &max_ply))
        argc = 2;
    if (argc != 2)
        return usage_error(NULL, NULL);
    Book book;
    if (!open_book(argv[0], &book))
        return 1;
    char error[300];
    PgnReader *r = pgn_open(argv[1], error, sizeof error);
    bool *reached = calloc(book.count ? book.count : 1, sizeof *reached);
    Board *b = malloc(sizeof *b);
    int status = 1;
    if (!r)
        fprintf(stderr, "book walk: %s\n", error);
    else if (!reached || !b)
        fprintf(stderr, "book walk: out of memory\n");
    else {
        pgn_set_move_limit(r, max_ply);
        WalkCounts c = { 0 };
        const PgnGame *g;
        while ((g = next_readable_game(r, argv[1], false, &c.games, &c.bad)))
            walk_game(&book, g, max_ply, b, reached, &c);
        fprintf(stderr, "walk: %ld games (%ld unreadable), %ld positions looked at, %ld in the book; "
                "%ld of %zu entries reached, %ld illegal\n", c.games, c.bad, c.positions, c.found, c.reached_count,
                book.count, c.illegal);
        status = c.illegal ? 1 : 0;
    }
    if (r)
        pgn_close(r);
    free(reached);
    free(b);
    book_free(&book);
    return status;
}

static int cmd_read(int argc, char **argv)
{
    const char *path = NULL, *out_path = NULL;
    bool quiet = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out_path = argv[++i];
        else if (strcmp(argv[i], "--quiet") == 0)
            quiet = true;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            return usage_error("book read", argv[i]);
    }
    if (!path)
        return usage_error(NULL, NULL);
    char error[300];
    PgnReader *r = pgn_open(path, error, sizeof error);
    if (!r) {
        fprintf(stderr, "book read: %s\n", error);
        return 1;
    }
    FILE *out = NULL;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "book read: cannot write '%s'\n", out_path);
        pgn_close(r);
        return 1;
    }
    long games = 0, bad = 0, truncated = 0, plies = 0, comments = 0, variations = 0, nags = 0, with_fen = 0;
    const PgnGame *g;
    while ((g = next_readable_game(r, path, quiet, &games, &bad))) {
        truncated += g->truncated;
        plies += g->move_count;
        comments += g->comments;
        variations += g->variations;
        nags += g->nags;
        with_fen += g->has_fen;
        if (out)
            pgn_write_game(out, g->tags, g->tag_count, g->has_fen ? g->fen : NULL, g->moves, g->move_count, g->result);
    }
    pgn_close(r);
    bool ok = !out || fclose(out) == 0;
    printf("games: %ld read, %ld unreadable (skipped), %ld without an end marker, %ld from a FEN\n", games - bad, bad,
           truncated, with_fen);
    printf("positions: %ld (moves of the main lines)\n", plies);
    printf("skipped: %ld comments, %ld variations, %ld NAGs\n", comments, variations, nags);
    return ok ? (bad ? 1 : 0) : 1;
}

int book_command(int argc, char **argv)
{
    if (argc < 1)
        return usage_error(NULL, NULL);
    const char *sub = argv[0];
    argc--, argv++;
    if (strcmp(sub, "build") == 0)
        return cmd_build(argc, argv);
    if (strcmp(sub, "probe") == 0)
        return cmd_probe(argc, argv);
    if (strcmp(sub, "key") == 0)
        return cmd_key(argc, argv);
    if (strcmp(sub, "info") == 0)
        return cmd_info(argc, argv, false);
    if (strcmp(sub, "dump") == 0)
        return cmd_info(argc, argv, true);
    if (strcmp(sub, "walk") == 0)
        return cmd_walk(argc, argv);
    if (strcmp(sub, "read") == 0)
        return cmd_read(argc, argv);
    return usage_error(NULL, NULL);
}
