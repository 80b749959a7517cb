/* lab.c — `bachess lab`: the algorithms of lab_search.c measured on uniform trees. */
#include "tools/lab.h"

#include <stdlib.h>
#include <string.h>

#include "timer.h"
#include "tools/lab_search.h"
#include "tools/lab_tree.h"

enum { BRANCHING_NB = 5, MIN_DEPTH = 2 };
static const int branchings[BRANCHING_NB] = {2, 5, 10, 20, 35};

/* One algorithm on one (ordering, b, t): means over the trees. */
typedef struct {
    bool run;      /* tried at all (not skipped after an earlier abandon) */
    bool complete; /* every tree finished inside the budget */
    double leaves, distinct, inner, researches, passes;
} Cell;

typedef struct {
    Cell cell[LAB_ORDER_NB][BRANCHING_NB][LAB_MAX_DEPTH + 1][LAB_ALGO_NB];
    uint64_t runs, disagreements;
} Measurements;

LabConfig lab_default_config(void)
{
    return (LabConfig){.max_leaves = 4000000, .trees = 3, .max_depth = 8, .range = 10000, .seed = 1};
}

/* Each (ordering, b, t, tree) gets its own seed; the tree hashes it again,
 * so neighbouring seeds give unrelated trees. */
static uint64_t tree_seed(const LabConfig *config, LabOrder order, int b, int t, int i)
{
    const uint64_t p = 1000003;
    return (((config->seed * p + (uint64_t)order) * p + (uint64_t)b) * p + (uint64_t)t) * p + (uint64_t)i;
}

/* Only NegaScout and PVS can evaluate a leaf twice: minimax and alpha-beta
 * never come back to a leaf, and MTD(f) remembers every leaf it evaluated
 * (the unit tests check all three), so the others skip the costly set. */
static bool revisits(LabAlgo algo)
{
    return algo == LAB_NEGASCOUT || algo == LAB_PVS;
}

/* Adds one run to a cell; the first incomplete run spoils the cell. */
static void add_run(Cell *c, const LabResult *r)
{
    c->run = true;
    if (!r->complete) {
        c->complete = false;
        return;
    }
    c->leaves += (double)r->leaves;
    c->distinct += (double)(r->distinct ? r->distinct : r->leaves);
    c->inner += (double)r->inner;
    c->researches += (double)r->researches;
    c->passes += (double)r->passes;
}

/* Every algorithm whose cell is still complete, on one tree; the complete
 * runs must agree on the value. */
static void measure_tree(const LabConfig *config, Measurements *m, Cell *cells, const LabTree *tree)
{
    bool have = false;
    int value = 0;
    for (int a = 0; a < LAB_ALGO_NB; a++) {
        if (!cells[a].complete)
            continue;
        LabLimits limits = {.budget = config->max_leaves, .track_distinct = revisits((LabAlgo)a)};
        LabResult r = lab_search(tree, (LabAlgo)a, &limits);
        add_run(&cells[a], &r);
        m->runs++;
        if (!r.complete)
            continue;
        m->disagreements += have && r.value != value;
        if (!have)
            value = r.value;
        have = true;
    }
}

/* All algorithms on `trees` trees of one (ordering, b, t). An algorithm that
 * was abandoned at a smaller depth is not run (it would only be abandoned
 * again). */
static void measure_point(const LabConfig *config, Measurements *m, LabOrder o, int bi, int t)
{
    Cell *cells = m->cell[o][bi][t];
    for (int a = 0; a < LAB_ALGO_NB; a++) {
        const Cell *before = &m->cell[o][bi][t - 1][a];
        cells[a].complete = t == MIN_DEPTH || (before->run && before->complete);
    }
    for (int i = 0; i < config->trees; i++) {
        LabTree tree;
        if (lab_tree_uniform(&tree, o, branchings[bi], t, config->range, tree_seed(config, o, branchings[bi], t, i)))
            measure_tree(config, m, cells, &tree);
    }
    for (int a = 0; a < LAB_ALGO_NB; a++) {
        cells[a].leaves /= config->trees;
        cells[a].distinct /= config->trees;
        cells[a].inner /= config->trees;
        cells[a].researches /= config->trees;
        cells[a].passes /= config->trees;
    }
}

static void measure_all(const LabConfig *config, Measurements *m)
{
    for (int o = 0; o < LAB_ORDER_NB; o++)
        for (int bi = 0; bi < BRANCHING_NB; bi++)
            for (int t = MIN_DEPTH; t <= config->max_depth; t++)
                measure_point(config, m, (LabOrder)o, bi, t);
}

/* "1234 (1.05)" (a mean that is not whole keeps one decimal), or "—" when
 * the run was abandoned or skipped. */
static void print_cell(FILE *out, double leaves, bool complete, uint64_t km)
{
    if (!complete)
        fprintf(out, " — |");
    else if (leaves == (double)(uint64_t)leaves)
        fprintf(out, " %.0f (%.2f) |", leaves, leaves / (double)km);
    else
        fprintf(out, " %.1f (%.2f) |", leaves, leaves / (double)km);
}

static void print_table(FILE *out, const LabConfig *config, const Measurements *m, LabOrder o)
{
    fprintf(out, "\n### %s ordering\n\n| b | t | K–M minimum | b^t |", lab_order_name(o));
    for (int a = 0; a < LAB_ALGO_NB; a++)
        fprintf(out, " %s |", lab_algo_name((LabAlgo)a));
    fprintf(out, "\n|---:|---:|---:|---:|");
    for (int a = 0; a < LAB_ALGO_NB; a++)
        fprintf(out, "---:|");
    fprintf(out, "\n");
    for (int bi = 0; bi < BRANCHING_NB; bi++) {
        for (int t = MIN_DEPTH; t <= config->max_depth; t++) {
            int b = branchings[bi];
            uint64_t km = lab_knuth_moore(b, t);
            fprintf(out, "| %d | %d | %llu | %llu |", b, t, (unsigned long long)km,
                    (unsigned long long)lab_power((uint64_t)b, t));
            for (int a = 0; a < LAB_ALGO_NB; a++) {
                const Cell *c = &m->cell[o][bi][t][a];
                print_cell(out, c->leaves, c->run && c->complete, km);
            }
            fprintf(out, "\n");
        }
    }
}

/* NegaScout and PVS may evaluate a leaf more than once; this table gives the
 * different leaves they evaluated. (Minimax and alpha-beta never come back
 * to a leaf, and MTD(f) remembers every leaf it evaluated.) */
static void print_distinct(FILE *out, const LabConfig *config, const Measurements *m)
{
    static const LabOrder orders[2] = {LAB_ORDER_RANDOM, LAB_ORDER_WORST};
    static const LabAlgo algos[2] = {LAB_NEGASCOUT, LAB_PVS};
    fprintf(out, "\n### different leaves evaluated by NegaScout and PVS\n\n| b | t | K–M minimum |");
    for (int o = 0; o < 2; o++)
        for (int a = 0; a < 2; a++)
            fprintf(out, " %s, %s |", lab_algo_name(algos[a]), lab_order_name(orders[o]));
    fprintf(out, "\n|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int bi = 0; bi < BRANCHING_NB; bi++) {
        for (int t = MIN_DEPTH; t <= config->max_depth; t++) {
            uint64_t km = lab_knuth_moore(branchings[bi], t);
            fprintf(out, "| %d | %d | %llu |", branchings[bi], t, (unsigned long long)km);
            for (int o = 0; o < 2; o++)
                for (int a = 0; a < 2; a++) {
                    const Cell *c = &m->cell[orders[o]][bi][t][algos[a]];
                    print_cell(out, c->distinct, c->run && c->complete, km);
                }
            fprintf(out, "\n");
        }
    }
}

static void print_markdown(FILE *out, const LabConfig *config, const Measurements *m)
{
    fprintf(out, "Leaf evaluations (and their ratio to the Knuth–Moore minimum b^⌊t/2⌋ + b^⌈t/2⌉ − 1),\n"
                 "mean of %d tree%s per cell, leaf values in [-%d, %d], seed %llu;\n"
                 "— = over the budget of %llu leaf evaluations per run.\n",
            config->trees, config->trees == 1 ? "" : "s", config->range, config->range,
            (unsigned long long)config->seed, (unsigned long long)config->max_leaves);
    static const LabOrder shown[LAB_ORDER_NB] = {LAB_ORDER_PERFECT, LAB_ORDER_RANDOM, LAB_ORDER_WORST};
    for (int i = 0; i < LAB_ORDER_NB; i++)
        print_table(out, config, m, shown[i]);
    print_distinct(out, config, m);
    fprintf(out, "\n%llu runs; complete runs on the same tree disagreed on the value %llu times.\n",
            (unsigned long long)m->runs, (unsigned long long)m->disagreements);
}

/* One line per complete cell: the input of scripts/lab-plot.sh. */
static void print_data(FILE *out, const LabConfig *config, const Measurements *m)
{
    fprintf(out, "# order b t algo km b^t leaves distinct inner ratio researches passes\n");
    for (int o = 0; o < LAB_ORDER_NB; o++)
        for (int bi = 0; bi < BRANCHING_NB; bi++)
            for (int t = MIN_DEPTH; t <= config->max_depth; t++)
                for (int a = 0; a < LAB_ALGO_NB; a++) {
                    const Cell *c = &m->cell[o][bi][t][a];
                    if (!c->run || !c->complete)
                        continue;
                    int b = branchings[bi];
                    uint64_t km = lab_knuth_moore(b, t);
                    fprintf(out, "%s %d %d %s %llu %llu %.1f %.1f %.1f %.4f %.1f %.2f\n",
                            lab_order_name((LabOrder)o), b, t, lab_algo_name((LabAlgo)a), (unsigned long long)km,
                            (unsigned long long)lab_power((uint64_t)b, t), c->leaves, c->distinct, c->inner,
                            c->leaves / (double)km, c->researches, c->passes);
                }
    fprintf(out, "# runs %llu disagreements %llu\n", (unsigned long long)m->runs,
            (unsigned long long)m->disagreements);
}

bool lab_print(FILE *out, const LabConfig *config)
{
    Measurements *m = calloc(1, sizeof *m);
    if (!m) {
        fprintf(stderr, "lab: out of memory\n");
        return false;
    }
    measure_all(config, m);
    if (config->data)
        print_data(out, config, m);
    else
        print_markdown(out, config, m);
    bool ok = true;
    if (config->data_out) {
        FILE *file = fopen(config->data_out, "w");
        if (file)
            print_data(file, config, m);
        ok = file && fclose(file) == 0;
        if (!ok)
            fprintf(stderr, "lab: cannot write %s\n", config->data_out);
    }
    free(m);
    return ok;
}

/* A whole number from `text` in [low, high]; false if it is not one. */
static bool parse_number(const char *text, uint64_t low, uint64_t high, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || v < low || v > high)
        return false;
    *out = v;
    return true;
}

/* Prints the options; to stdout when asked for, else to stderr. */
static int usage(bool asked)
{
    fprintf(asked ? stdout : stderr, "usage: bachess lab [--max-leaves N] [--trees N] [--depth T] [--range R] [--seed S]\n"
                    "                   [--data] [--data-out FILE]\n"
                    "  --max-leaves N  leaf evaluations one run may use before it is abandoned (4000000)\n"
                    "  --trees N       trees per cell, averaged (3)\n"
                    "  --depth T       deepest t, at most 10 (8)\n"
                    "  --range R       leaf values in [-R, R] (10000)\n"
                    "  --seed S        seed of the first tree (1)\n"
                    "  --data          print one data line per measurement instead of Markdown\n"
                    "  --data-out FILE write the data lines to FILE as well\n");
    return asked ? 0 : 2;
}

int lab_command(int argc, char **argv)
{
    LabConfig config = lab_default_config();
    for (int i = 0; i < argc; i++) {
        uint64_t v;
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--data") == 0)
            config.data = true;
        else if (strcmp(argv[i], "--max-leaves") == 0 && has_value && parse_number(argv[++i], 1, UINT64_MAX, &v))
            config.max_leaves = v;
        else if (strcmp(argv[i], "--trees") == 0 && has_value && parse_number(argv[++i], 1, 1000, &v))
            config.trees = (int)v;
        else if (strcmp(argv[i], "--depth") == 0 && has_value && parse_number(argv[++i], MIN_DEPTH, 10, &v))
            config.max_depth = (int)v;
        else if (strcmp(argv[i], "--range") == 0 && has_value && parse_number(argv[++i], 0, LAB_MAX_VALUE, &v))
            config.range = (int)v;
        else if (strcmp(argv[i], "--seed") == 0 && has_value && parse_number(argv[++i], 0, UINT64_MAX, &v))
            config.seed = v;
        else if (strcmp(argv[i], "--data-out") == 0 && has_value)
            config.data_out = argv[++i];
        else
            return usage(strcmp(argv[i], "--help") == 0);
    }
    int64_t start = time_now_ms();
    bool ok = lab_print(stdout, &config);
    fprintf(stderr, "lab: %.1f s\n", (double)(time_now_ms() - start) / 1000.0);
    return ok ? 0 : 1;
}
