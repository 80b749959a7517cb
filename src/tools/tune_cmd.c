/* tune_cmd.c — the `bachess tune …` sub-commands: extract labelled positions
 * from games, and tune the weights on them (see tune.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "timer.h"
#include "tokens.h"
#include "tools/tune.h"

static void tune_usage(void)
{
    fputs("usage:\n"
          "  bachess tune extract GAMES.pgn OUT [--every N] [--skip N]\n"
          "      quiet positions of every decided or drawn game as \"FEN [result]\" lines,\n"
          "      result from White's side; default --every 1 (all) --skip 8 (plies)\n"
          "  bachess tune run POSITIONS [--epochs N] [--lr CP] [--reg L] [--k K] [--hold-out F]\n"
          "                 [--freeze NAME,NAME...] [--limit N] [--report N] [--out FILE]\n"
          "      fit K at the current weights, then tune the linear weights by Adam for N\n"
          "      epochs with an L2 penalty L per squared cp of change, on all but the last\n"
          "      fraction F of the positions (later games: reported, never trained on), and\n"
          "      write the weights as the initializer of src/evalweights.c (to FILE, else\n"
          "      stdout). --freeze keeps whole fields (e.g. material) as they are. Defaults:\n"
          "      1000 epochs, step 1 cp, L 1e-9, K fitted, F 0.1, report 50\n",
          stderr);
}

static bool parse_real(const char *text, double min, double max, double *out)
{
    char *end;
    double v = text ? strtod(text, &end) : 0;
    if (!text || end == text || *end || !(v >= min && v <= max))
        return false;
    *out = v;
    return true;
}

/* ---- extract ------------------------------------------------------------ */

static int cmd_extract(int argc, char **argv)
{
    TuneExtractOptions o = { .every = 1, .skip = 8 };
    const char *paths[2] = { NULL, NULL };
    int path_count = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "--every") == 0)
            ok = parse_int_in(v, 1, 1000, &o.every), i++;
        else if (strcmp(a, "--skip") == 0)
            ok = parse_int_in(v, 0, 1000, &o.skip), i++;
        else if (a[0] != '-' && path_count < 2)
            paths[path_count++] = a;
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "tune extract: bad or incomplete argument '%s'\n", a);
            tune_usage();
            return 2;
        }
    }
    if (path_count < 2) {
        tune_usage();
        return 2;
    }
    FILE *out = fopen(paths[1], "w");
    if (!out) {
        fprintf(stderr, "tune extract: cannot write %s\n", paths[1]);
        return 1;
    }
    TuneExtractStats s;
    char error[256];
    bool ok = tune_extract(paths[0], out, &o, &s, error, sizeof error);
    ok = fclose(out) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "tune extract: %s\n", error);
        return 1;
    }
    printf("%ld games (%ld unreadable), %ld used: %ld quiet positions written, %ld noisy ones skipped\n",
           s.games, s.bad_games, s.used_games, s.positions, s.noisy);
    return 0;
}

/* ---- run ---------------------------------------------------------------- */

typedef struct {
    const char *positions, *out, *freeze;
    int epochs, limit, report;
    double rate, k, regularisation, hold_out; /* k 0: fit it */
} RunOptions;

static bool parse_run_options(int argc, char **argv, RunOptions *o)
{
    *o = (RunOptions){ .epochs = 1000, .report = 50, .rate = 1.0, .regularisation = 1e-9, .hold_out = 0.1 };
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "--epochs") == 0)
            ok = parse_int_in(v, 0, 1000000, &o->epochs), i++;
        else if (strcmp(a, "--limit") == 0)
            ok = parse_int_in(v, 0, 1 << 30, &o->limit), i++;
        else if (strcmp(a, "--report") == 0)
            ok = parse_int_in(v, 0, 1000000, &o->report), i++;
        else if (strcmp(a, "--lr") == 0)
            ok = parse_real(v, 1e-6, 1000, &o->rate), i++;
        else if (strcmp(a, "--reg") == 0)
            ok = parse_real(v, 0, 1, &o->regularisation), i++;
        else if (strcmp(a, "--hold-out") == 0)
            ok = parse_real(v, 0, 0.9, &o->hold_out), i++;
        else if (strcmp(a, "--k") == 0)
            ok = parse_real(v, 1e-6, 1, &o->k), i++;
        else if (strcmp(a, "--freeze") == 0)
            o->freeze = v, i++, ok = v != NULL;
        else if (strcmp(a, "--out") == 0)
            o->out = v, i++, ok = v != NULL;
        else if (a[0] != '-' && !o->positions)
            o->positions = a;
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "tune run: bad or incomplete argument '%s'\n", a);
            return false;
        }
    }
    return o->positions != NULL;
}

/* Adds a position and checks it against evaluate(): the sparse model must
 * give the same number, or the trace misses a term. Returns false only
 * when out of memory; counts and shows the first mismatches. */
static bool add_checked(TuneData *d, const Board *b, double result, PawnTable *pawns, int *white, int *mismatches)
{
    *white = evaluate(b, pawns) * (b->side == WHITE ? 1 : -1);
    if (!tune_data_add(d, b, result))
        return false;
    int model = tune_model_eval_exact(d, d->count - 1);
    if (model != *white && (*mismatches)++ < 5) {
        char fen[128];
        board_get_fen(b, fen, sizeof fen);
        fprintf(stderr, "mismatch: evaluate %d, sparse model %d: %s\n", *white, model, fen);
    }
    return true;
}

/* Loads the positions, checking each; `exact` receives evaluate()'s White
 * score of each. */
static bool load_positions(const char *path, int limit, TuneData *d, int **exact)
{
    FILE *f = fopen(path, "r");
    Board *b = malloc(sizeof *b);
    PawnTable *pawns = pawn_table_create();
    int capacity = 0, bad = 0, mismatches = 0;
    bool ok = f && b && pawns;
    char line[512];
    while (ok && (!limit || d->count < limit) && fgets(line, sizeof line, f)) {
        double result;
        if (!tune_parse_line(line, b, &result)) {
            if (bad++ < 5)
                fprintf(stderr, "unreadable: %s", line);
            continue;
        }
        if (d->count == capacity) {
            int *grown = realloc(*exact, (size_t)(capacity = capacity ? 2 * capacity : 1 << 16) * sizeof *grown);
            ok = grown != NULL;
            *exact = grown ? grown : *exact;
        }
        int white = 0;
        ok = ok && add_checked(d, b, result, pawns, &white, &mismatches);
        if (ok)
            (*exact)[d->count - 1] = white;
    }
    if (f)
        fclose(f);
    free(b);
    pawn_table_destroy(pawns);
    if (!ok)
        fprintf(stderr, "tune run: cannot read %s or out of memory\n", path);
    else
        printf("%d positions (%d unreadable lines), %zu terms; the sparse model reproduces evaluate() "
               "exactly for %d of %d\n",
               d->count, bad, d->term_count, d->count - mismatches, d->count);
    return ok;
}

/* The error of evaluate() itself, in integers, for comparison with the model. */
static double exact_error(const TuneData *d, const int *exact, double k)
{
    double sum = 0;
    for (int i = 0; i < d->count; i++) {
        double miss = d->positions[i].result - 1.0 / (1.0 + exp(-k * exact[i]));
        sum += miss * miss;
    }
    return d->count ? sum / d->count : 0;
}

static bool write_weights_to(const char *path)
{
    if (!path) {
        tune_write_weights(stdout);
        return true;
    }
    FILE *out = fopen(path, "w");
    if (!out)
        return false;
    tune_write_weights(out);
    return fclose(out) == 0;
}

static void print_material(const char *when)
{
    printf("material %s (mg/eg):", when);
    for (PieceType t = PAWN; t <= QUEEN; t++)
        printf(" %d/%d", score_mg(eval_weights.material[t]), score_eg(eval_weights.material[t]));
    putchar('\n');
}

/* The last `fraction` of the positions, from the last games of the file,
 * as a data set of its own that shares the terms; `train` keeps the rest. */
static void split(const TuneData *all, double fraction, TuneData *train, TuneData *held_out)
{
    int held = (int)(all->count * fraction);
    *train = *all;
    train->count = all->count - held;
    *held_out = *all;
    held_out->positions = all->positions + train->count;
    held_out->count = held;
}

static void print_errors(const char *when, const TuneData *train, const TuneData *held_out, const TuneParams *p,
                         double k)
{
    printf("%s: error %.7f", when, tune_error(train, p, k));
    if (held_out->count)
        printf(", held out %.7f", tune_error(held_out, p, k));
    putchar('\n');
}

/* Freezes every weight of the fields named in a comma-separated list. */
static bool freeze_fields(const char *list, TuneOptions *t)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", list ? list : "");
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < weight_info_count && strcmp(weight_info[i].name, name) != 0)
            i++;
        if (i == weight_info_count) {
            fprintf(stderr, "tune run: no weight is called '%s'\n", name);
            return false;
        }
        for (int k = 0; k < weight_info[i].count; k++)
            t->frozen[weight_info[i].index + k][0] = t->frozen[weight_info[i].index + k][1] = true;
    }
    return true;
}

static void tune(const RunOptions *o, const TuneData *train, const TuneData *held_out, TuneParams *p,
                 TuneOptions *t, double k)
{
    tune_params_from_weights(p);
    tune_center_tables(p, (const bool(*)[2])t->frozen);
    print_errors("piece-square tables centred", train, held_out, p, k);
    TuneParams *anchor = malloc(sizeof *anchor);
    if (anchor)
        *anchor = *p;
    t->epochs = o->epochs;
    t->rate = o->rate;
    t->regularisation = o->regularisation;
    t->anchor = anchor;
    t->validation = held_out->count ? held_out : NULL;
    t->report_every = o->report;
    t->progress = stdout;
    int64_t start = time_now_ms();
    tune_optimise(train, p, k, t);
    printf("%d epochs in %.1f s\n", o->epochs, (double)(time_now_ms() - start) / 1000);
    tune_params_to_weights(p);
    tune_params_from_weights(p);
    print_errors("tuned, in whole centipawns", train, held_out, p, k);
    free(anchor);
}

static int cmd_run(int argc, char **argv)
{
    RunOptions o;
    if (!parse_run_options(argc, argv, &o)) {
        tune_usage();
        return 2;
    }
    TuneData all, train, held_out;
    tune_data_init(&all);
    int *exact = NULL;
    TuneParams *p = malloc(sizeof *p);
    TuneOptions *t = malloc(sizeof *t);
    if (t)
        tune_options_default(t);
    if (t && !freeze_fields(o.freeze, t)) {
        free(p), free(t);
        return 2;
    }
    if (!p || !t || !load_positions(o.positions, o.limit, &all, &exact) || all.count == 0) {
        free(p), free(t), free(exact);
        tune_data_free(&all);
        return 1;
    }
    split(&all, o.hold_out, &train, &held_out);
    printf("training on %d positions, %d held out\n", train.count, held_out.count);
    tune_params_from_weights(p);
    double k = o.k > 0 ? o.k : tune_find_k(&train, p);
    printf("K = %.6f%s; evaluate() itself: error %.7f\n", k, o.k > 0 ? " (given)" : " (fitted)",
           exact_error(&train, exact, k));
    print_errors("starting weights", &train, &held_out, p, k);
    print_material("before");
    fflush(stdout);

    tune(&o, &train, &held_out, p, t, k);
    print_material("after");
    bool ok = write_weights_to(o.out);
    if (!ok)
        fprintf(stderr, "tune run: cannot write %s\n", o.out);
    free(p), free(t), free(exact);
    tune_data_free(&all);
    return ok ? 0 : 1;
}

int tune_command(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "extract") == 0)
        return cmd_extract(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    tune_usage();
    return 2;
}
