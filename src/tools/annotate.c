/* annotate.c — `bachess annotate`: options, workers, ordered output, progress (see annotate.h). */
#include "tools/annotate.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform.h"
#include "games/pgn.h"
#include "options.h"
#include "syzygy/syzygy.h"
#include "timer.h"
#include "tokens.h"
#include "tools/annotate_game.h"
#include "tools/annotate_share.h"
#include "tools/workers.h"

/* The default search of a position: a node count, so that the default
 * output is the same on every machine; about 1 s of CPU a position on
 * today's machines, second looks included. A fifth of it found 5 to 6
 * points fewer of a strong judge's errors (docs/results/annotate.md, "A
 * million nodes, each position on its own"). */
enum { DEFAULT_NODES = 1000000 };
/* Progress: a terminal's line is redrawn this often; a log gets a line at
 * the longer interval. */
enum { PROGRESS_TTY_MS = 250, PROGRESS_LOG_MS = 10000 };
enum { EXIT_INTERRUPTED = 130 };

typedef struct {
    const char *in_path, *out_path;
    const char *syzygy_path; /* --syzygy: the tables' directories, or NULL */
    int64_t movetime_ms, nodes, depth;
    int workers;
    bool sides[COLOR_NB];
    bool second_look; /* --no-second-look clears it */
} AnnotateOptions;

void annotate_usage(FILE *out)
{
    fprintf(out,
            "usage: bachess annotate GAMES.pgn [--out FILE] [--movetime MS | --nodes N | --depth D]\n"
            "                        [--threads N] [--side white|black|both] [--no-second-look]\n"
            "                        [--syzygy DIRS]\n"
            "  every game analysed and written back as PGN (docs/annotate.md): [%%eval] on every move,\n"
            "  ?! ?? ? by lichess's win-probability model, the engine's line after mistakes and\n"
            "  blunders, Accuracy and ACPL tags per player; a table of the players on stderr.\n"
            "  --out FILE       write the games to FILE (default: standard output)\n"
            "  --nodes N        search each position to N nodes (default %d)\n"
            "  --depth D        search each position to depth D instead\n"
            "  --movetime MS    search each position MS milliseconds instead (depends on the machine)\n"
            "  --threads N      worker processes, each with its own engine, sharing out each game's\n"
            "                   positions (default 1, at most %d); with --nodes or --depth the\n"
            "                   output is the same for any N\n"
            "  --side S         annotate the moves of white, black or both (default both);\n"
            "                   every move keeps its [%%eval]\n"
            "  --no-second-look a move near a mark's line is not searched again (by default its\n"
            "                   two positions are, with %d times the nodes or %d more plies;\n"
            "                   never with --movetime)\n"
            "  --syzygy DIRS    probe the Syzygy tablebases in DIRS (separated by ':'): the\n"
            "                   positions they hold are scored by them, exactly\n"
            "  SIGINT (Ctrl-C) or SIGTERM stops; the games finished before the first unfinished one\n"
            "  are written, whole. Standard chess and Chess960 ([Variant \"Chess960\"] and a FEN tag)\n"
            "  are read; a game the PGN reader cannot read is reported and passed over.\n",
            DEFAULT_NODES, WORKERS_MAX, SECOND_LOOK_NODES_FACTOR, SECOND_LOOK_EXTRA_DEPTH);
}

/* ---- arguments ----------------------------------------------------------------- */

static bool parse_side(const char *text, bool sides[COLOR_NB])
{
    sides[WHITE] = strcmp(text, "white") == 0 || strcmp(text, "both") == 0;
    sides[BLACK] = strcmp(text, "black") == 0 || strcmp(text, "both") == 0;
    return sides[WHITE] || sides[BLACK];
}

/* A number flag's value, from 1 up. */
static bool parse_count(const char *flag, const char *text, int64_t max, int64_t *value)
{
    if (text && parse_int64(text, value) && *value >= 1 && *value <= max)
        return true;
    fprintf(stderr, "annotate: %s needs a number from 1 to %lld\n", flag, (long long)max);
    return false;
}

static bool parse_flag(AnnotateOptions *o, const char *flag, const char *value)
{
    int64_t workers = 0;
    if (strcmp(flag, "--out") == 0 && value)
        o->out_path = value;
    else if (strcmp(flag, "--syzygy") == 0 && value)
        o->syzygy_path = value;
    else if (strcmp(flag, "--side") == 0) {
        if (!value || !parse_side(value, o->sides)) {
            fprintf(stderr, "annotate: --side white|black|both\n");
            return false;
        }
    }
    else if (strcmp(flag, "--movetime") == 0)
        return parse_count(flag, value, 3600000, &o->movetime_ms);
    else if (strcmp(flag, "--nodes") == 0)
        return parse_count(flag, value, 1000000000000LL, &o->nodes);
    else if (strcmp(flag, "--depth") == 0)
        return parse_count(flag, value, MAX_PLY - 1, &o->depth);
    else if (strcmp(flag, "--threads") == 0) {
        if (!parse_count(flag, value, WORKERS_MAX, &workers))
            return false;
        o->workers = (int)workers;
    } else {
        const char *why = strcmp(flag, "--out") == 0       ? "needs a file name"
                          : strcmp(flag, "--syzygy") == 0 ? "needs the tables' directories"
                                                          : "is not an option";
        fprintf(stderr, "annotate: %s %s\n", flag, why);
        return false;
    }
    return true;
}

static bool parse_options(int argc, char **argv, AnnotateOptions *o)
{
    *o = (AnnotateOptions){ .workers = 1, .sides = { true, true }, .second_look = true };
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0)
            return annotate_usage(stdout), exit(0), false;
        if (strcmp(argv[i], "--no-second-look") == 0)
            o->second_look = false;
        else if (strncmp(argv[i], "--", 2) != 0) {
            if (o->in_path) {
                fprintf(stderr, "annotate: one PGN file only (%s, then %s)\n", o->in_path, argv[i]);
                return false;
            }
            o->in_path = argv[i];
        } else if (!parse_flag(o, argv[i], i + 1 < argc ? argv[i + 1] : NULL))
            return false;
        else
            i++;
    }
    if ((o->movetime_ms > 0) + (o->nodes > 0) + (o->depth > 0) > 1) {
        fprintf(stderr, "annotate: one of --movetime, --nodes and --depth\n");
        return false;
    }
    if (!o->movetime_ms && !o->depth && !o->nodes)
        o->nodes = DEFAULT_NODES;
    if (!o->in_path)
        fprintf(stderr, "annotate: which PGN file?\n");
    return o->in_path != NULL;
}

/* ---- the games in the file ------------------------------------------------------- */

typedef struct {
    int count;          /* games in the file, unreadable ones too */
    int *positions;     /* per game number - 1: positions to search, or -1 for an unreadable game */
    long total_positions;
    int max_positions; /* of a game */
    int unreadable;
} GameList;

/* Reads the file once through: what there is to do, and the games that
 * cannot be read, reported now. */
static bool list_games(const char *path, GameList *list)
{
    char error[256];
    PgnReader *r = pgn_open(path, error, sizeof error);
    if (!r) {
        fprintf(stderr, "annotate: %s\n", error);
        return false;
    }
    pgn_allow_chess960(r, true);
    *list = (GameList){ 0 };
    int capacity = 0;
    const PgnGame *g;
    PgnError bad;
    PgnStatus status = PGN_END;
    while ((status = pgn_next(r, &g, &bad)) != PGN_END) {
        if (list->count == capacity) {
            capacity = capacity ? 2 * capacity : 256;
            int *grown = realloc(list->positions, sizeof *grown * (size_t)capacity);
            if (!grown) {
                fprintf(stderr, "annotate: out of memory listing the games of %s\n", path);
                break;
            }
            list->positions = grown;
        }
        bool good = status == PGN_GAME;
        list->positions[list->count++] = good ? g->move_count + 1 : -1;
        list->total_positions += good ? g->move_count + 1 : 0;
        if (good && g->move_count + 1 > list->max_positions)
            list->max_positions = g->move_count + 1;
        list->unreadable += !good;
        if (!good)
            fprintf(stderr, "annotate: %s: game %d, line %d: %s; passed over\n", path, bad.game, bad.line, bad.message);
    }
    pgn_close(r);
    if (status == PGN_END)
        return true;
    free(list->positions);
    return false;
}

/* ---- the workers ------------------------------------------------------------------ */

/* A game as it travels from a worker: this header, then the PGN text. */
typedef struct {
    int32_t number;     /* in the file */
    int32_t annotated;  /* 0: it could not be (no text follows) */
    int64_t text_size;
    GameReport report;
    char white[32], black[32], result[8];
} GameHeader;

/* What the progress line counts, shared by every process. */
typedef struct {
    _Atomic long positions_searched; /* on the first look */
    _Atomic long looked_again;       /* positions searched again on a second look */
} SharedCounts;

typedef struct {
    const AnnotateOptions *options;
    AnnotateSettings settings;
    SharedCounts *counts;
    AnnotateShare *share; /* the verdicts the workers share: NULL for one worker */
} Job;

static void searched_hook(void *context)
{
    atomic_fetch_add_explicit(&((Job *)context)->counts->positions_searched, 1, memory_order_relaxed);
}

static void looked_again_hook(void *context, int position)
{
    (void)position;
    atomic_fetch_add_explicit(&((Job *)context)->counts->looked_again, 1, memory_order_relaxed);
}

static void copy_tag(const PgnGame *g, const char *name, char *out, size_t size)
{
    const char *value = pgn_tag(g, name);
    snprintf(out, size, "%s", value && value[0] ? value : "?");
}

/* Annotates one game with the other workers, and sends it if it is this
 * worker's to send (the parent reads game n from worker (n - 1) % workers);
 * false when the worker should end. */
static bool send_game(Job *job, const PgnGame *g, const PositionSplit *split, int fd)
{
    AnnotateHooks hooks = { searched_hook, job, looked_again_hook };
    GameHeader h = { .number = g->number };
    char *text = NULL;
    size_t size = 0;
    FILE *out = platform_memstream(&text, &size);
    h.annotated = out && annotate_game(g, &job->settings, &hooks, split, out, &h.report);
    if (!h.annotated) /* whatever failed here, the other workers would wait for this one's verdicts */
        split_give_up(split);
    if (out)
        platform_memstream_close(out);
    if (workers_should_stop() || (g->number - 1) % split->workers != split->worker) {
        free(text);
        return !workers_should_stop();
    }
    h.text_size = h.annotated ? (int64_t)size : 0;
    copy_tag(g, "White", h.white, sizeof h.white);
    copy_tag(g, "Black", h.black, sizeof h.black);
    snprintf(h.result, sizeof h.result, "%s", g->result);
    bool sent = pipe_write_all(fd, &h, sizeof h) && pipe_write_all(fd, text, (size_t)h.text_size);
    free(text);
    return sent;
}

static void run_worker(int worker, int fd, void *context)
{
    Job *job = context;
    char error[256];
    PgnReader *r = pgn_open(job->options->in_path, error, sizeof error);
    if (r)
        pgn_allow_chess960(r, true);
    const PgnGame *g;
    PgnError bad;
    PgnStatus status;
    PositionSplit split = { job->share, worker, job->options->workers, 0 };
    while (r && !workers_should_stop() && (status = pgn_next(r, &g, &bad)) != PGN_END) {
        if (status != PGN_GAME)
            continue;
        if (!split_begin_game(&split))
            break;
        bool go_on = send_game(job, g, &split, fd);
        split_end_game(&split);
        if (!go_on)
            break;
    }
    if (r)
        pgn_close(r);
}

/* ---- progress and the table --------------------------------------------------------- */

typedef struct {
    int64_t start, last_shown;
    bool tty;
    int games_done, games_total;
    long positions_total;
    const SharedCounts *counts;
} Progress;

static void show_progress(Progress *p, bool final)
{
    int64_t now = time_now_ms();
    if (!final && now - p->last_shown < (p->tty ? PROGRESS_TTY_MS : PROGRESS_LOG_MS))
        return;
    p->last_shown = now;
    long done = atomic_load(&p->counts->positions_searched), again = atomic_load(&p->counts->looked_again);
    double seconds = (double)(now - p->start) / 1000.0;
    char left[48] = "";
    if (done > 0 && done < p->positions_total) {
        long eta = (long)(seconds * (double)(p->positions_total - done) / (double)done);
        snprintf(left, sizeof left, ", %ld:%02ld left", eta / 60, eta % 60);
    }
    int width = 20, filled = p->positions_total ? (int)(width * done / p->positions_total) : width;
    char bar[32];
    for (int i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    /* The second looks come at the end of each game: their count moves while the first look's stands still. */
    char second[48] = "";
    if (again > 0)
        snprintf(second, sizeof second, ", %ld looked at again", again);
    fprintf(stderr, "%sannotate: [%s] %d/%d games, %ld/%ld positions%s, %.0f s%s%s", p->tty ? "\r" : "", bar,
            p->games_done, p->games_total, done, p->positions_total, second, seconds, left,
            !p->tty ? "\n" : final ? "\033[K\n" : "\033[K"); /* a shorter line clears the rest of the last */
}

static void mark_counts(const GameReport *r, Color c, char *out, size_t size)
{
    if (r->accuracy[c] < 0)
        snprintf(out, size, "%5s %4s %8s", "-", "-", "-");
    else
        snprintf(out, size, "%5.1f %4d %2d/%2d/%2d", r->accuracy[c], r->acpl[c], r->marks[c][MARK_INACCURACY],
                 r->marks[c][MARK_MISTAKE], r->marks[c][MARK_BLUNDER]);
}

static void table_row(FILE *table, const GameHeader *h)
{
    char white[32], black[32];
    mark_counts(&h->report, WHITE, white, sizeof white);
    mark_counts(&h->report, BLACK, black, sizeof black);
    fprintf(table, "%5d  %-18.18s %-18.18s %-7s  %s   %s\n", h->number, h->white, h->black, h->result, white, black);
}

/* ---- the parent ------------------------------------------------------------------------ */

/* Waits until `fd` has data, showing progress meanwhile. A worker that
 * died takes its part of the game under way with it, and the others would
 * wait for it for ever: they are all stopped then, and the pipes end. */
static void wait_for(int fd, Progress *progress)
{
    while (!platform_readable(fd, PROGRESS_TTY_MS)) {
        show_progress(progress, false);
        if (workers_failed()) {
            fprintf(stderr, "annotate: a worker died; stopping the others\n");
            workers_stop();
        }
    }
}

/* Copies game `number` from its worker's pipe `fd` to `out` (*written: it
 * was annotated and written); false at the end of the pipe (or on a failed
 * write, counted in *failures). */
static bool copy_game(int fd, int number, FILE *out, FILE *table, int *failures, bool *written)
{
    *written = false;
    GameHeader h;
    if (!pipe_read_all(fd, &h, sizeof h) || h.number != number)
        return false;
    char *text = malloc((size_t)h.text_size + 1);
    bool ok = text && pipe_read_all(fd, text, (size_t)h.text_size);
    if (ok && !h.annotated) {
        fprintf(stderr, "annotate: game %d could not be annotated\n", h.number);
        ++*failures;
    }
    if (ok && h.annotated) {
        if (fwrite(text, 1, (size_t)h.text_size, out) != (size_t)h.text_size || fflush(out) != 0) {
            fprintf(stderr, "annotate: cannot write: %s\n", strerror(errno));
            ++*failures;
            ok = false;
        } else {
            table_row(table, &h);
            *written = true;
        }
    }
    free(text);
    return ok;
}

/* Writes the games in the order of the file as the workers send them;
 * returns how many were written (a game that could not be annotated is
 * passed, not written). */
static int write_games(const GameList *list, const int *fds, int workers, FILE *out, FILE *table, Progress *progress,
                       int *failures)
{
    int games_written = 0;
    for (int number = 1; number <= list->count; number++) {
        if (list->positions[number - 1] < 0)
            continue;
        int fd = fds[(number - 1) % workers];
        wait_for(fd, progress);
        int failures_before = *failures;
        bool written;
        if (!copy_game(fd, number, out, table, failures, &written)) {
            if (!workers_interrupted() && *failures == failures_before) /* not a failed write */
                fprintf(stderr, "annotate: game %d never came: its worker ended early\n", number);
            break;
        }
        progress->games_done++;
        games_written += written;
        show_progress(progress, false);
    }
    show_progress(progress, true);
    return games_written;
}

/* The tables of --syzygy, loaded before the workers start, so that each
 * has them. A path without tables is refused: the user asked for them, and
 * a review without them would look the same. */
static bool load_tablebases(const char *path)
{
    char message[512];
    if (syzygy_init(path, message, sizeof message) > 0)
        return true;
    fprintf(stderr, "annotate: --syzygy: %s\n", message);
    return false;
}

/* The engine for every game: no book, one search thread (workers, not
 * threads, share the work: the output then does not depend on their number),
 * and no Move Overhead: it is kept back for a GUI's lag, and here there is
 * none, so --movetime 100 searches 100 ms, not 70. */
static bool set_engine_options(const AnnotateOptions *o)
{
    static const char *const SETTINGS[] = { "OwnBook=false", "Threads=1", "Move Overhead=0" };
    char error[256];
    for (size_t i = 0; i < sizeof SETTINGS / sizeof *SETTINGS; i++)
        if (!option_set_assignment(SETTINGS[i], error, sizeof error)) {
            fprintf(stderr, "annotate: cannot set %s: %s\n", SETTINGS[i], error);
            return false;
        }
    return !o->syzygy_path || load_tablebases(o->syzygy_path);
}

static void fill_settings(const AnnotateOptions *o, const char *annotator, AnnotateSettings *s)
{
    timeman_init_limits(&s->limits);
    s->limits.move_time = o->movetime_ms;
    s->limits.nodes = (uint64_t)o->nodes;
    s->limits.depth = (int)o->depth;
    s->looks_twice = o->second_look && annotate_second_look_limits(&s->limits, &s->second_look);
    memcpy(s->sides, o->sides, sizeof s->sides);
    s->annotator = annotator;
}

/* The Annotator tag: "bachess, 1000000 nodes a position, 5000000 on a second look". */
static void describe_budget(const AnnotateSettings *s, char *out, size_t size)
{
    const SearchLimits *first = &s->limits, *second = &s->second_look;
    int length;
    if (first->move_time)
        length = snprintf(out, size, "bachess, %lld ms a position", (long long)first->move_time);
    else if (first->depth)
        length = snprintf(out, size, "bachess, depth %d a position", first->depth);
    else
        length = snprintf(out, size, "bachess, %llu nodes a position", (unsigned long long)first->nodes);
    if (!s->looks_twice || length < 0 || (size_t)length >= size)
        return;
    if (first->depth)
        snprintf(out + length, size - (size_t)length, ", depth %d on a second look", second->depth);
    else
        snprintf(out + length, size - (size_t)length, ", %llu on a second look", (unsigned long long)second->nodes);
}

/* The Annotator tag's tables, when there are any: ", Syzygy tables of up to 4 pieces". */
static void describe_tables(char *out, size_t size)
{
    size_t length = strlen(out);
    if (syzygy_largest() > 0 && length < size)
        snprintf(out + length, size - length, ", Syzygy tables of up to %d pieces", syzygy_largest());
}

static int run(const AnnotateOptions *o, const GameList *list, FILE *out)
{
    char annotator[160];
    SharedCounts *counts = platform_map_shared(sizeof *counts);
    if (!counts) {
        fprintf(stderr, "annotate: cannot share the progress counters: %s\n", strerror(errno));
        return 1;
    }
    atomic_store(&counts->positions_searched, 0);
    atomic_store(&counts->looked_again, 0);
    Job job = { .options = o, .counts = counts };
    if (o->workers > 1 && !(job.share = annotate_share_new(list->max_positions))) {
        fprintf(stderr, "annotate: cannot share the verdicts between the workers: %s\n", strerror(errno));
        platform_unmap_shared(counts, sizeof *counts);
        return 1;
    }
    fill_settings(o, annotator, &job.settings);
    describe_budget(&job.settings, annotator, sizeof annotator);
    describe_tables(annotator, sizeof annotator);

    char *table_text = NULL;
    size_t table_size = 0;
    FILE *table = platform_memstream(&table_text, &table_size);
    int fds[WORKERS_MAX], failures = 0, written = 0;
    fflush(NULL);
    bool started = table && workers_start(o->workers, run_worker, &job, fds);
    int64_t start = time_now_ms();
    Progress progress = { .start = start, .last_shown = start, .tty = isatty(STDERR_FILENO),
                          .games_total = list->count - list->unreadable, .positions_total = list->total_positions,
                          .counts = counts };
    if (started)
        written = write_games(list, fds, o->workers, out, table, &progress, &failures);
    if (written < progress.games_total) /* a worker still at work has nobody to send to */
        workers_stop();
    for (int w = 0; started && w < o->workers; w++)
        close(fds[w]);
    bool workers_ok = workers_wait();
    bool interrupted = workers_interrupted();
    if (table)
        platform_memstream_close(table);
    fprintf(stderr, "%5s  %-18s %-18s %-7s  %-19s   %s\n%54s%s   %s\n", "game", "white", "black", "result",
            "white", "black", "", "  acc ACPL ?!/ ?/??", "  acc ACPL ?!/ ?/??");
    fputs(table_text ? table_text : "", stderr);
    fprintf(stderr, "annotate: %d of %d games written (%s), %.1f s%s\n", written, progress.games_total,
            o->out_path ? o->out_path : "standard output", (double)(time_now_ms() - progress.start) / 1000.0,
            interrupted ? "; interrupted" : "");
    free(table_text);
    annotate_share_free(job.share);
    platform_unmap_shared(counts, sizeof *counts);
    if (interrupted)
        return EXIT_INTERRUPTED;
    return started && workers_ok && failures == 0 && written == progress.games_total ? 0 : 1;
}

/* The input is read twice (listed here, then by each worker), so it must
 * be a regular file, and --out must not name it: opening the output would
 * empty the games before they are read. */
static bool input_is_safe(const AnnotateOptions *o)
{
    struct stat in, out;
    if (stat(o->in_path, &in) != 0) {
        fprintf(stderr, "annotate: cannot read %s: %s\n", o->in_path, strerror(errno));
        return false;
    }
    if (!S_ISREG(in.st_mode)) {
        fprintf(stderr, "annotate: %s is not a regular file (it is read twice: give a file)\n", o->in_path);
        return false;
    }
    if (o->out_path && stat(o->out_path, &out) == 0 && out.st_dev == in.st_dev && out.st_ino == in.st_ino) {
        fprintf(stderr, "annotate: --out %s is the input file: it would be emptied before it is read\n", o->out_path);
        return false;
    }
    return true;
}

int annotate_command(int argc, char **argv)
{
    AnnotateOptions o;
    if (!parse_options(argc, argv, &o)) {
        annotate_usage(stderr);
        return 2;
    }
    GameList list;
    if (!input_is_safe(&o) || !set_engine_options(&o) || !list_games(o.in_path, &list))
        return 2;
    if (list.unreadable == list.count) { /* nothing to do is not success */
        fprintf(stderr, "annotate: %s holds no game that can be read\n", o.in_path);
        free(list.positions);
        return 2;
    }
    FILE *out = o.out_path ? fopen(o.out_path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "annotate: cannot open %s: %s\n", o.out_path, strerror(errno));
        free(list.positions);
        return 2;
    }
    int status = run(&o, &list, out);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "annotate: cannot write %s: %s\n", o.out_path, strerror(errno));
        status = status ? status : 1;
    }
    free(list.positions);
    return status;
}
