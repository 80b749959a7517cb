/* datagen.c — self-play training data (see datagen.h). */
#include "tools/datagen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "engine.h"
#include "games/pgn.h"
#include "movegen.h"
#include "options.h"
#include "score.h"
#include "splitmix.h"
#include "timer.h"
#include "tt.h"
#include "tokens.h"
#include "tools/packed_position.h"
#include "tools/viriformat.h"
#include "tools/workers.h"

enum {
    MAX_GAME_PLIES = 400,
    MAX_OPENING_TRIES = 100,
    MAX_OPENINGS = 1000000,
    MAX_ENGINE_OPTIONS = 16,
    /* The hard node limit of a move's search, in soft limits: a safety net
     * against an iteration that explodes, never reached in normal play. */
    HARD_NODES_PER_SOFT = 10
};

typedef struct {
    long games;           /* 0: until stopped */
    int nodes;            /* per move: the soft limit */
    int random_plies;
    int opening_nodes;    /* the check of an opening's score */
    int opening_max_cp;
    AdjudicationRules adjudication;
    int workers;
    uint64_t seed;
    const char *out_path, *records_path, *openings_path;
    const char *engine_options[MAX_ENGINE_OPTIONS]; /* "Name=Value", as given to --option */
    int engine_option_count;
} DatagenOptions;

static void defaults(DatagenOptions *o)
{
    *o = (DatagenOptions){
        .games = 0, .nodes = 5000, .random_plies = 8, .opening_nodes = 5000, .opening_max_cp = 1000,
        .adjudication = { .win_cp = 1000, .win_plies = 6, .draw_cp = 10, .draw_plies = 12, .draw_after_ply = 80 },
        .workers = 1, .seed = 1, .out_path = NULL, .records_path = NULL, .openings_path = NULL,
    };
}

void datagen_usage(FILE *out)
{
    fputs("usage: bachess datagen --out FILE [options]\n"
          "  self-play games for NNUE training data, appended to FILE whole, every ply with its\n"
          "  move and score (viriformat: docs/selfplay-store.md). SIGINT (Ctrl-C) or SIGTERM stops\n"
          "  the workers' searches at once; the games finished before the first unfinished one are\n"
          "  written, whole. The last line says where the nodes went: positions written (as\n"
          "  records), passed over, opening checks.\n"
          "  --out FILE            the games, appended to (required)\n"
          "  --records FILE        also the quiet positions as 32-byte records, appended to FILE\n"
          "  --games N             games to play (default 0: until stopped)\n"
          "  --nodes N             soft node limit a move (default 5000): no new iteration of the\n"
          "                        search starts past it; 10 times it is a hard limit\n"
          "  --random-plies N      random legal plies after the opening position (default 8)\n"
          "  --openings FILE       openings to start from (default: the start position): EPD/FEN\n"
          "                        lines, or PGN (a .pgn name, or text starting with a tag), each\n"
          "                        game's position after its moves\n"
          "  --opening-max-cp N    redraw an opening whose score is beyond N cp (default 1000)\n"
          "  --win-cp N --win-plies N    adjudicate a win when |score| >= N for that many plies (1000, 6)\n"
          "  --draw-cp N --draw-plies N --draw-after N\n"
          "                        adjudicate a draw when |score| <= N for that many plies after ply N (10, 12, 80)\n"
          "  --threads N           worker processes, each with its own engine (default 1)\n"
          "  --seed N              random seed (default 1); the same seed gives the same data for any --threads\n"
          "  --option NAME=VALUE   an engine option for every game, e.g. Evaluation=NNUE (repeatable)\n"
          "  --help                this text\n",
          out);
}

/* ---- arguments ------------------------------------------------------------- */

/* Every flag the parser takes; --help must list them all (a test checks). */
const char *const DATAGEN_FLAGS[] = {
    "--out", "--records", "--openings", "--option", "--games", "--nodes", "--random-plies", "--opening-max-cp",
    "--win-cp", "--win-plies", "--draw-cp", "--draw-plies", "--draw-after", "--threads", "--seed", "--help", NULL,
};

static bool is_flag(const char *a)
{
    for (int i = 0; DATAGEN_FLAGS[i]; i++)
        if (strcmp(a, DATAGEN_FLAGS[i]) == 0)
            return true;
    return false;
}

static bool takes_text(const char *a)
{
    return strcmp(a, "--out") == 0 || strcmp(a, "--records") == 0 || strcmp(a, "--openings") == 0
        || strcmp(a, "--option") == 0;
}

/* One flag and its value, both checked. */
static bool apply_flag(DatagenOptions *o, const char *a, const char *v, int64_t n)
{
    AdjudicationRules *adj = &o->adjudication;
    if (strcmp(a, "--out") == 0) o->out_path = v;
    else if (strcmp(a, "--records") == 0) o->records_path = v;
    else if (strcmp(a, "--openings") == 0) o->openings_path = v;
    else if (strcmp(a, "--option") == 0) {
        if (o->engine_option_count == MAX_ENGINE_OPTIONS) {
            fprintf(stderr, "datagen: at most %d --option\n", MAX_ENGINE_OPTIONS);
            return false;
        }
        o->engine_options[o->engine_option_count++] = v;
    }
    else if (strcmp(a, "--games") == 0) o->games = (long)n;
    else if (strcmp(a, "--nodes") == 0) o->nodes = (int)n;
    else if (strcmp(a, "--random-plies") == 0) o->random_plies = (int)n;
    else if (strcmp(a, "--opening-max-cp") == 0) o->opening_max_cp = (int)n;
    else if (strcmp(a, "--win-cp") == 0) adj->win_cp = (int)n;
    else if (strcmp(a, "--win-plies") == 0) adj->win_plies = (int)n;
    else if (strcmp(a, "--draw-cp") == 0) adj->draw_cp = (int)n;
    else if (strcmp(a, "--draw-plies") == 0) adj->draw_plies = (int)n;
    else if (strcmp(a, "--draw-after") == 0) adj->draw_after_ply = (int)n;
    else if (strcmp(a, "--threads") == 0) o->workers = (int)n;
    else if (strcmp(a, "--seed") == 0) o->seed = (uint64_t)n;
    else {
        fprintf(stderr, "datagen: %s is listed but not handled\n", a);
        return false;
    }
    return true;
}

static bool parse_options(int argc, char **argv, DatagenOptions *o)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t n = 0;
        if (!is_flag(a)) {
            fprintf(stderr, "datagen: unknown option %s\n", a);
            return false;
        }
        if (strcmp(a, "--help") == 0)
            return datagen_usage(stdout), exit(0), false;
        bool number = !takes_text(a);
        if (!v || (number && (!parse_int64(v, &n) || n < 0 || n > 1000000000LL))) {
            fprintf(stderr, "datagen: %s needs %s\n", a, number ? "a number from 0 to 1000000000" : "a value");
            return false;
        }
        i++;
        if (!apply_flag(o, a, v, n))
            return false;
    }
    if (!o->out_path || o->nodes < 1 || o->workers < 1 || o->workers > WORKERS_MAX || o->adjudication.win_plies < 1) {
        fprintf(stderr, "datagen: --out is required; --nodes, --threads (1..%d) and --win-plies must be positive\n",
                WORKERS_MAX);
        return false;
    }
    return true;
}

/* ---- openings ---------------------------------------------------------------- */

typedef struct {
    char **fens;
    int count;
} Openings;

static bool add_opening(Openings *o, const char *fen)
{
    o->fens[o->count] = strdup(fen);
    return o->fens[o->count++] != NULL;
}

/* EPD or FEN lines: the first four fields are the position (the EPD
 * operations after them are not needed). Blank lines and `#` comments are
 * passed over; any other line that is not a position refuses the file, as a
 * bad PGN game does, rather than leaving the user's openings silently short. */
static bool load_epd_openings(const char *path, FILE *in, Openings *o)
{
    char *line; /* read_line's own buffer, reused from line to line: not ours to free */
    Board *check = malloc(sizeof *check);
    bool ok = check != NULL;
    for (int number = 1; ok && o->count < MAX_OPENINGS && (line = read_line(in)) != NULL; number++) {
        char fields[4][100];
        char fen[512], error[128];
        int found = sscanf(line, "%99s %99s %99s %99s", fields[0], fields[1], fields[2], fields[3]);
        if (found <= 0 || fields[0][0] == '#')
            continue;
        if (found < 4) {
            fprintf(stderr, "datagen: %s: line %d: not a position (a FEN needs at least four fields)\n", path, number);
            ok = false;
            continue;
        }
        snprintf(fen, sizeof fen, "%s %s %s %s 0 1", fields[0], fields[1], fields[2], fields[3]);
        if (!board_set_fen(check, fen, error, sizeof error)) {
            fprintf(stderr, "datagen: %s: line %d: %s\n", path, number, error);
            ok = false;
            continue;
        }
        ok = add_opening(o, fen);
    }
    free(check);
    return ok;
}

/* The position after each game's main line (move counters included). The
 * PGN reader has checked every move; a game it cannot read refuses the file,
 * since the openings would not be what the user chose. */
static bool load_pgn_openings(const char *path, Openings *o)
{
    char error[256];
    PgnReader *r = pgn_open(path, error, sizeof error);
    if (!r) {
        fprintf(stderr, "datagen: %s\n", error);
        return false;
    }
    Board *b = malloc(sizeof *b);
    bool ok = b != NULL;
    const PgnGame *g;
    PgnError bad;
    PgnStatus status;
    while (ok && o->count < MAX_OPENINGS && (status = pgn_next(r, &g, &bad)) != PGN_END) {
        if (status == PGN_BAD_GAME) {
            fprintf(stderr, "datagen: %s: game %d, line %d: %s\n", path, bad.game, bad.line, bad.message);
            ok = false;
        } else if (!board_set_fen(b, g->fen, error, sizeof error)) {
            fprintf(stderr, "datagen: %s: game %d, line %d: %s\n", path, g->number, g->line, error);
            ok = false;
        } else {
            for (int i = 0; i < g->move_count; i++)
                board_make_move(b, g->moves[i]);
            char fen[128];
            board_get_fen(b, fen, sizeof fen);
            ok = add_opening(o, fen);
        }
    }
    free(b);
    pgn_close(r);
    return ok;
}

/* PGN by its name (.pgn) or by its text: the first thing in it is a tag. */
static bool is_pgn(const char *path, FILE *in)
{
    size_t length = strlen(path);
    if (length >= 4 && strcasecmp(path + length - 4, ".pgn") == 0)
        return true;
    int c;
    while ((c = fgetc(in)) != EOF && (c == ' ' || c == '\t' || c == '\r' || c == '\n'))
        ;
    rewind(in);
    return c == '[';
}

static bool load_openings(const char *path, Openings *o)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "datagen: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    o->fens = calloc(MAX_OPENINGS, sizeof *o->fens);
    bool pgn = is_pgn(path, in);
    bool ok = o->fens && (pgn ? load_pgn_openings(path, o) : load_epd_openings(path, in, o));
    fclose(in);
    if (ok && o->count == 0)
        fprintf(stderr, "datagen: no usable position in %s\n", path);
    return ok && o->count > 0;
}

static void free_openings(Openings *o)
{
    for (int i = 0; i < o->count; i++)
        free(o->fens[i]);
    free(o->fens);
}

/* ---- one search ---------------------------------------------------------------- */

typedef struct {
    int score; /* side to move's point of view */
    Move best;
    int64_t nodes;
} Verdict;

static void keep_score(const SearchInfo *info, void *context)
{
    if (info->multipv == 1 && info->bound == BOUND_EXACT && info->pv_length > 0 && !info->no_iteration)
        ((Verdict *)context)->score = info->score;
}

static void keep_best(Move best, Move ponder, void *context)
{
    (void)ponder;
    ((Verdict *)context)->best = best;
}

/* A search to `soft` nodes (0: none; the last iteration is whole) or `hard`
 * ones (cut wherever the count falls). */
static Verdict search_nodes(uint64_t soft, uint64_t hard)
{
    Verdict v = { 0, MOVE_NONE, 0 };
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.soft_nodes = soft;
    limits.nodes = hard;
    workers_search(&limits, (SearchReport){ keep_score, keep_best, &v });
    v.nodes = (int64_t)engine_last_nodes();
    return v;
}

/* ---- one game ---------------------------------------------------------------- */

/* A game as the store keeps it — its start board and every ply — and the
 * quiet positions of it as 32-byte records (for --records). */
typedef struct {
    ViriBoard start;
    ViriPly *plies;
    int ply_count, ply_capacity;
    PackedPosition *records;
    int record_count, record_capacity;
} GameRecord;

/* Sets the engine to an opening: a line of the file (or the start) and
 * random plies, redrawn while the game is over or the score is absurd. */
static bool start_game(const DatagenOptions *o, const Openings *openings, uint64_t *rng, DatagenCost *cost)
{
    char error[128];
    for (int attempt = 0; attempt < MAX_OPENING_TRIES; attempt++) {
        const char *fen = openings->count ? openings->fens[splitmix64(rng) % (uint64_t)openings->count] : NULL;
        if (!engine_set_position(fen, NULL, 0, error, sizeof error))
            continue;
        bool playable = true;
        for (int ply = 0; ply < o->random_plies && playable; ply++) {
            MoveList list;
            generate_legal(engine_board(), &list);
            playable = list.count > 0;
            if (playable)
                engine_play_move(list.moves[splitmix64(rng) % (uint64_t)list.count]);
        }
        if (!playable || game_status(engine_board()) != GAME_ONGOING)
            continue;
        engine_new_game();
        Verdict v = search_nodes(0, (uint64_t)o->opening_nodes);
        cost->opening_nodes += v.nodes;
        cost->openings++;
        if (v.best != MOVE_NONE && abs(v.score) <= o->opening_max_cp)
            return true;
    }
    return false;
}

/* The result by the rules, from White's point of view, or -1 if the game goes on. */
static int result_by_rules(const Board *b)
{
    switch (game_status(b)) {
    case GAME_ONGOING:
        return -1;
    case GAME_CHECKMATE:
        return b->side == WHITE ? 0 : 2;
    default:
        return 1;
    }
}

int datagen_adjudicate(Adjudicator *a, const AdjudicationRules *rules, int white_score, int ply)
{
    int sign = white_score >= rules->win_cp ? 1 : white_score <= -rules->win_cp ? -1 : 0;
    a->win_run = sign != 0 && sign == a->last_sign ? a->win_run + 1 : sign != 0;
    a->last_sign = sign;
    if (a->win_run >= rules->win_plies)
        return sign > 0 ? 2 : 0;
    a->draw_run = abs(white_score) <= rules->draw_cp ? a->draw_run + 1 : 0;
    if (ply >= rules->draw_after_ply && a->draw_run >= rules->draw_plies)
        return 1;
    return -1;
}

bool datagen_keeps_position(const Board *b, Move best, int score)
{
    return !board_in_check(b) && !board_is_capture(b, best) && move_kind(best) != MOVE_PROMOTION
        && !is_mate_score(score);
}

/* Room for one more element in a growing array (a worker out of memory
 * cannot go on: it exits, and the parent's file ends at the game before). */
static void *make_room(void *array, int count, int *capacity, size_t element_size)
{
    if (count < *capacity)
        return array;
    *capacity = *capacity ? 2 * *capacity : 256;
    array = realloc(array, element_size * (size_t)*capacity);
    if (!array)
        exit(3);
    return array;
}

static void add_ply(GameRecord *g, ViriPly ply)
{
    g->plies = make_room(g->plies, g->ply_count, &g->ply_capacity, sizeof *g->plies);
    g->plies[g->ply_count++] = ply;
}

static void add_record(GameRecord *g, const PackedPosition *p)
{
    g->records = make_room(g->records, g->record_count, &g->record_capacity, sizeof *g->records);
    g->records[g->record_count++] = *p;
}

typedef enum { GAME_PLAYED, GAME_NO_OPENING, GAME_ABANDONED } GameOutcome;

/* Counts a game move's search: written or passed over, and its nodes past the soft limit. */
static void count_move(DatagenCost *cost, const Verdict *v, bool kept, int soft_nodes)
{
    *(kept ? &cost->kept_nodes : &cost->passed_nodes) += v->nodes;
    *(kept ? &cost->kept : &cost->passed) += 1;
    if (v->nodes > soft_nodes)
        cost->past_soft_nodes += v->nodes - soft_nodes;
}

/* Plays game `index` into `g` — every ply, and the quiet positions as
 * records — with the result, and what its searches cost to `cost`. */
static GameOutcome play_game(const DatagenOptions *o, const Openings *openings, long index, GameRecord *g,
                             DatagenCost *cost)
{
    uint64_t rng = o->seed * 0x2545F4914F6CDD1DULL ^ (uint64_t)index * 0x9E3779B97F4A7C15ULL;
    g->ply_count = g->record_count = 0;
    *cost = (DatagenCost){ 0 };
    if (!start_game(o, openings, &rng, cost))
        return GAME_NO_OPENING;
    engine_new_game();
    viri_board_write(&g->start, engine_board(), 1); /* the result is filled in at the end */
    Adjudicator adj = { 0, 0, 0 };
    int result = -1;
    for (int plies = 0; plies < MAX_GAME_PLIES && result < 0; plies++) {
        if (workers_should_stop())
            return GAME_ABANDONED;
        const Board *b = engine_board();
        if ((result = result_by_rules(b)) >= 0)
            break;
        Verdict v = search_nodes((uint64_t)o->nodes, (uint64_t)o->nodes * HARD_NODES_PER_SOFT);
        if (v.best == MOVE_NONE)
            break;
        int white_score = b->side == WHITE ? v.score : -v.score;
        bool keep = datagen_keeps_position(b, v.best, v.score);
        count_move(cost, &v, keep, o->nodes);
        add_ply(g, (ViriPly){ viri_move_encode(b, v.best), viri_score(white_score) });
        if (keep) {
            PackedPosition p;
            packed_position_write(&p, b, white_score, 1); /* the result is filled in at the end */
            add_record(g, &p);
        }
        result = datagen_adjudicate(&adj, &o->adjudication, white_score, b->game_ply);
        engine_play_move(v.best);
    }
    if (result < 0)
        result = 1; /* the ply limit: a draw */
    g->start.bytes[30] = (uint8_t)result;
    for (int i = 0; i < g->record_count; i++)
        g->records[i].bytes[26] = (uint8_t)result;
    return GAME_PLAYED;
}

/* ---- workers and the writer ---------------------------------------------------- */

/* A game as it travels from a worker: this header, then (if played) the
 * start board, the plies and the records. */
typedef struct {
    int64_t index;
    int32_t plies, records, played;
    DatagenCost cost;
} GameHeader;

static bool set_engine_option(const char *assignment)
{
    char error[256];
    if (option_set_assignment(assignment, error, sizeof error))
        return true;
    fprintf(stderr, "datagen: cannot set %s: %s\n", assignment, error);
    return false;
}

/* The engine settings every game needs, then the user's --option ones. Set
 * in the parent before the workers fork, so a refusal (an option renamed, a
 * net that does not load) stops the run before any game is played instead of
 * quietly making other data. A search of a few thousand nodes fills a small
 * part of a 1 MB table; a larger one only adds cache misses, and games came
 * about a third faster with 1 MB than with 16 (docs/results/datagen.md). */
static bool set_engine_options(const DatagenOptions *o)
{
    static const char *const FIXED[] = { "OwnBook=false", "Threads=1", "Hash=1" };
    for (size_t i = 0; i < sizeof FIXED / sizeof *FIXED; i++)
        if (!set_engine_option(FIXED[i]))
            return false;
    for (int i = 0; i < o->engine_option_count; i++)
        if (!set_engine_option(o->engine_options[i]))
            return false;
    return true;
}

/* What every worker plays from. */
typedef struct {
    const DatagenOptions *options;
    const Openings *openings;
} Job;

/* Plays this worker's games (every workers-th) into fd, until stopped: a
 * game abandoned is not sent, which ends the parent's file there. */
static void play_games(int worker, int fd, void *context)
{
    const Job *job = context;
    const DatagenOptions *o = job->options;
    const Openings *openings = job->openings;
    GameRecord g = { 0 };
    for (long index = worker; !workers_should_stop() && (o->games == 0 || index < o->games); index += o->workers) {
        DatagenCost cost;
        GameOutcome outcome = play_game(o, openings, index, &g, &cost);
        if (outcome == GAME_ABANDONED)
            break;
        bool played = outcome == GAME_PLAYED;
        GameHeader h = { index, played ? g.ply_count : 0, played ? g.record_count : 0, played, cost };
        if (!pipe_write_all(fd, &h, sizeof h)
            || (played && !pipe_write_all(fd, &g.start, sizeof g.start))
            || !pipe_write_all(fd, g.plies, sizeof *g.plies * (size_t)h.plies)
            || !pipe_write_all(fd, g.records, sizeof *g.records * (size_t)h.records))
            break;
    }
    free(g.plies);
    free(g.records);
}

static void report(long games, long positions, int64_t start, const DatagenOptions *o, bool final)
{
    double seconds = (double)(time_now_ms() - start) / 1000.0;
    double rate = seconds > 0 ? positions / seconds : 0;
    char eta[64] = "";
    if (o->games > 0 && games > 0)
        snprintf(eta, sizeof eta, ", about %.0f s left", seconds * (double)(o->games - games) / (double)games);
    fprintf(stderr, "%sdatagen: %ld games, %ld positions, %.0f positions/s (%.0f/h)%s%s", final ? "\n" : "\r", games,
            positions, rate, rate * 3600, eta, final ? "\n" : "   ");
}

void datagen_cost_add(DatagenCost *sum, const DatagenCost *part)
{
    sum->opening_nodes += part->opening_nodes;
    sum->kept_nodes += part->kept_nodes;
    sum->passed_nodes += part->passed_nodes;
    sum->past_soft_nodes += part->past_soft_nodes;
    sum->openings += part->openings;
    sum->kept += part->kept;
    sum->passed += part->passed;
}

static double percent(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

void datagen_cost_line(const DatagenCost *c, char *out, size_t size)
{
    int64_t all = c->opening_nodes + c->kept_nodes + c->passed_nodes;
    snprintf(out, size,
             "datagen: %lld nodes, %.0f a position written: %.1f %% in %lld positions written, "
             "%.1f %% in %lld passed over, %.1f %% in %lld opening checks; %.1f %% past the soft limit",
             (long long)all, c->kept > 0 ? (double)all / (double)c->kept : 0.0, percent(c->kept_nodes, all),
             (long long)c->kept, percent(c->passed_nodes, all), (long long)c->passed, percent(c->opening_nodes, all),
             (long long)c->openings, percent(c->past_soft_nodes, all));
}

static void report_cost(const DatagenCost *cost)
{
    char line[400];
    datagen_cost_line(cost, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

/* Where the parent writes: the games, and the records if asked for. */
typedef struct {
    FILE *games, *records;
} Outputs;

/* A game received from a worker, in buffers reused from game to game. */
typedef struct {
    GameHeader header;
    ViriBoard start;
    ViriPly *plies;
    PackedPosition *records;
    size_t ply_room, record_room;
} ReceivedGame;

static bool read_array(int fd, void **array, size_t *room, size_t count, size_t element_size)
{
    if (count > *room) {
        void *bigger = realloc(*array, element_size * count);
        if (!bigger)
            return false;
        *array = bigger, *room = count;
    }
    return count == 0 || pipe_read_all(fd, *array, element_size * count);
}

/* Game `index` from its worker; false when it never came. */
static bool receive_game(int fd, long index, ReceivedGame *g)
{
    GameHeader *h = &g->header;
    if (!pipe_read_all(fd, h, sizeof *h) || h->index != index)
        return false;
    if (h->played && !pipe_read_all(fd, &g->start, sizeof g->start))
        return false;
    return read_array(fd, (void **)&g->plies, &g->ply_room, (size_t)h->plies, sizeof *g->plies)
        && read_array(fd, (void **)&g->records, &g->record_room, (size_t)h->records, sizeof *g->records);
}

/* The game in the store's form: start board, plies, four zero bytes. */
static bool write_viri_game(FILE *out, const ReceivedGame *g)
{
    bool ok = fwrite(g->start.bytes, 1, sizeof g->start.bytes, out) == sizeof g->start.bytes;
    uint8_t bytes[VIRI_PLY_SIZE];
    for (int i = 0; ok && i <= g->header.plies; i++) {
        viri_ply_bytes(i < g->header.plies ? g->plies[i] : (ViriPly){ 0, 0 }, bytes);
        ok = fwrite(bytes, 1, sizeof bytes, out) == sizeof bytes;
    }
    return ok;
}

static bool write_game(const Outputs *out, const ReceivedGame *g)
{
    if (!g->header.played)
        return true;
    size_t records = (size_t)g->header.records;
    return write_viri_game(out->games, g) && fflush(out->games) == 0
        && (!out->records
            || (fwrite(g->records, sizeof *g->records, records, out->records) == records && fflush(out->records) == 0));
}

/* The parent: reads each game from the worker that played it, in game order,
 * and appends it to the files; stops at the first game that never came. */
static int write_games(const DatagenOptions *o, const int *fds, const Outputs *out)
{
    int64_t start = time_now_ms(), last_report = start;
    long games = 0, positions = 0;
    DatagenCost cost = { 0 };
    ReceivedGame g = { 0 };
    int status = 0;
    for (long index = 0; o->games == 0 || index < o->games; index++) {
        if (!receive_game(fds[index % o->workers], index, &g))
            break;
        if (!write_game(out, &g)) {
            fprintf(stderr, "\ndatagen: cannot write: %s\n", strerror(errno));
            status = 1;
            break;
        }
        games += g.header.played;
        positions += g.header.plies;
        datagen_cost_add(&cost, &g.header.cost);
        if (time_now_ms() - last_report >= 2000) {
            report(games, positions, start, o, false);
            last_report = time_now_ms();
        }
    }
    report(games, positions, start, o, true);
    report_cost(&cost);
    free(g.plies);
    free(g.records);
    return status;
}

int datagen_genfens(int argc, char **argv)
{
    char *end = NULL;
    long count = argc >= 2 ? strtol(argv[1], &end, 10) : -1;
    bool ok = argc >= 6 && end && *end == '\0' && count >= 0 && strcmp(argv[2], "seed") == 0
        && strcmp(argv[4], "book") == 0;
    unsigned long long seed = 0;
    if (ok) {
        seed = strtoull(argv[3], &end, 10);
        ok = *end == '\0';
    }
    if (!ok) {
        fprintf(stderr, "usage: bachess \"genfens N seed S book None|FILE [extra]\" [quit]\n");
        return 2;
    }
    DatagenOptions o;
    defaults(&o);
    Openings openings = { NULL, 0 };
    if (strcmp(argv[5], "None") != 0 && !load_openings(argv[5], &openings)) {
        free_openings(&openings);
        return 2;
    }
    uint64_t rng = (uint64_t)seed * 0x2545F4914F6CDD1DULL ^ 0x9E3779B97F4A7C15ULL;
    int status = 0;
    DatagenCost cost = { 0 }; /* not reported: genfens plays no game */
    for (long i = 0; i < count; i++) {
        if (!start_game(&o, &openings, &rng, &cost)) {
            fprintf(stderr, "genfens: no playable opening in %d tries\n", MAX_OPENING_TRIES);
            status = 1;
            break;
        }
        char fen[128];
        board_get_fen(engine_board(), fen, sizeof fen);
        printf("info string genfens %s\n", fen);
    }
    fflush(stdout);
    free_openings(&openings);
    return status;
}

static FILE *open_for_appending(const char *path)
{
    FILE *f = fopen(path, "ab");
    if (!f)
        fprintf(stderr, "datagen: cannot open %s: %s\n", path, strerror(errno));
    return f;
}

static void close_outputs(Outputs *out)
{
    if (out->games)
        fclose(out->games);
    if (out->records)
        fclose(out->records);
}

static bool open_outputs(const DatagenOptions *o, Outputs *out)
{
    *out = (Outputs){ open_for_appending(o->out_path), NULL };
    if (out->games && o->records_path)
        out->records = open_for_appending(o->records_path);
    if (out->games && (out->records || !o->records_path))
        return true;
    close_outputs(out);
    return false;
}

int datagen_command(int argc, char **argv)
{
    DatagenOptions o;
    defaults(&o);
    if (!parse_options(argc, argv, &o)) {
        datagen_usage(stderr);
        return 2;
    }
    if (!set_engine_options(&o))
        return 2;
    Openings openings = { NULL, 0 };
    if (o.openings_path && !load_openings(o.openings_path, &openings)) {
        free_openings(&openings);
        return 2;
    }
    Outputs out;
    if (!open_outputs(&o, &out)) {
        free_openings(&openings);
        return 2;
    }
    int fds[WORKERS_MAX] = { 0 };
    Job job = { &o, &openings };
    fflush(NULL);
    if (!workers_start(o.workers, play_games, &job, fds)) {
        workers_wait();
        close_outputs(&out);
        free_openings(&openings);
        return 2;
    }
    fprintf(stderr, "datagen: %d worker%s, seed %llu, %d nodes a move, writing to %s\n", o.workers,
            o.workers > 1 ? "s" : "", (unsigned long long)o.seed, o.nodes, o.out_path);
    int status = write_games(&o, fds, &out);
    for (int w = 0; w < o.workers; w++)
        close(fds[w]);
    if (!workers_wait())
        status = 1;
    close_outputs(&out);
    free_openings(&openings);
    return status;
}
