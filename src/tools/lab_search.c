/* lab_search.c — minimax, alpha-beta, NegaScout, PVS and MTD(f) with counters. */
#include "tools/lab_search.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- a growing hash table keyed by heap number -------------------------- */

/* One slot: MTD(f) keeps a node's proven bounds in it; the distinct-leaf set
 * uses the key alone. Key 0 marks an empty slot, so keys are id + 1. */
typedef struct {
    uint64_t key;
    int lower, upper;
} Slot;

typedef struct {
    Slot *slots;
    int bits; /* capacity is 1 << bits */
    uint64_t used;
} Table;

enum { TABLE_FIRST_BITS = 10 };

/* Fibonacci hashing: heap numbers of siblings are consecutive, and the
 * multiplication scatters them over the whole table. */
static uint64_t home(const Table *t, uint64_t key)
{
    return (key * 0x9E3779B97F4A7C15ULL) >> (64 - t->bits);
}

static Slot *probe(const Table *t, uint64_t key)
{
    uint64_t mask = (1ULL << t->bits) - 1;
    uint64_t i = home(t, key);
    while (t->slots[i].key != 0 && t->slots[i].key != key)
        i = (i + 1) & mask;
    return &t->slots[i];
}

static void table_resize(Table *t, int bits)
{
    Table bigger = {calloc(1ULL << bits, sizeof(Slot)), bits, t->used};
    if (!bigger.slots) {
        fprintf(stderr, "lab: out of memory for a table of 2^%d slots\n", bits);
        exit(1);
    }
    for (uint64_t i = 0; t->slots && i < (1ULL << t->bits); i++)
        if (t->slots[i].key != 0)
            *probe(&bigger, t->slots[i].key) = t->slots[i];
    free(t->slots);
    *t = bigger;
}

static const Slot *table_find(const Table *t, uint64_t id)
{
    if (!t->slots)
        return NULL;
    const Slot *s = probe(t, id + 1);
    return s->key ? s : NULL;
}

/* The slot of `id`, made (with bounds -inf, inf) if it was missing; the table
 * stays at most half full. *added tells whether it was new. */
static Slot *table_insert(Table *t, uint64_t id, bool *added)
{
    if (!t->slots || (t->used + 1) * 2 > (1ULL << t->bits))
        table_resize(t, t->slots ? t->bits + 1 : TABLE_FIRST_BITS);
    Slot *s = probe(t, id + 1);
    *added = s->key == 0;
    if (*added) {
        *s = (Slot){id + 1, -LAB_INF, LAB_INF};
        t->used++;
    }
    return s;
}

static void table_free(Table *t)
{
    free(t->slots);
    *t = (Table){0};
}

/* ---- the search context and its counters --------------------------------- */

typedef struct {
    const LabTree *tree;
    LabResult result;
    uint64_t budget;
    bool stop;        /* the budget ran out: every function unwinds */
    bool track;       /* keep `seen` */
    Table seen;       /* leaves evaluated, for result.distinct */
    Table memory;     /* MTD(f)'s bounds */
} Search;

static Search search_begin(const LabTree *tree, const LabLimits *limits)
{
    Search s = {.tree = tree};
    if (limits) {
        s.budget = limits->budget;
        s.track = limits->track_distinct;
    }
    return s;
}

static LabResult search_end(Search *s, int value)
{
    table_free(&s->seen);
    table_free(&s->memory);
    s->result.complete = !s->stop;
    s->result.value = s->stop ? 0 : value;
    return s->result;
}

/* The one place a leaf is evaluated, so every algorithm counts alike. */
static int evaluate(Search *s, const LabNode *leaf)
{
    s->result.leaves++;
    if (s->budget && s->result.leaves > s->budget)
        s->stop = true;
    if (s->track) {
        bool added;
        table_insert(&s->seen, leaf->id, &added);
        s->result.distinct += added;
    }
    return lab_tree_leaf_value(s->tree, leaf);
}

/* Children of `node` into kids; counts an expansion unless it is a leaf. */
static int expand(Search *s, const LabNode *node, LabNode *kids)
{
    int k = lab_tree_children(s->tree, node, kids);
    s->result.inner += k > 0;
    return k;
}

/* ---- the algorithms -------------------------------------------------------- */

/* The reference definition (docs/lab.md), on values seen from MAX. */
static int minimax(Search *s, const LabNode *v)
{
    LabNode kids[LAB_MAX_BRANCHING];
    int k = expand(s, v, kids);
    if (k == 0)
        return lab_node_color(v) * evaluate(s, v);
    bool max = lab_node_color(v) > 0;
    int best = max ? -LAB_INF : LAB_INF;
    for (int i = 0; i < k; i++) {
        int m = minimax(s, &kids[i]);
        if (s->stop)
            return 0;
        if (max ? m > best : m < best)
            best = m;
    }
    return best;
}

/* The reference negamax alpha-beta (docs/lab.md), line for line. */
static int negamax(Search *s, const LabNode *v, int a, int b)
{
    LabNode kids[LAB_MAX_BRANCHING];
    int k = expand(s, v, kids);
    if (k == 0)
        return evaluate(s, v);
    for (int i = 0; i < k; i++) {
        int x = -negamax(s, &kids[i], -b, -a);
        if (s->stop)
            return 0;
        if (x > a)
            a = x;
        if (a >= b)
            return a; /* cutoff */
    }
    return a;
}

/* The reference NegaScout (docs/lab.md) in its Color convention: values are seen from MAX (Color
 * +1), Alpha is the bound of the side to move and Beta the opponent's, and
 * a child gets them swapped rather than negated. Its tests
 * "Depth = MaxDepth" and "Depth < MaxDepth - 1" become "v is a leaf" and
 * "the child is no leaf"; on uniform trees they are the same. */
static int negascout(Search *s, const LabNode *v, int color, int alpha, int beta)
{
    LabNode kids[LAB_MAX_BRANCHING];
    int k = expand(s, v, kids);
    if (k == 0)
        return color * evaluate(s, v); /* EvaluatePosition(Color) */
    int gamma = beta;
    for (int i = 0; i < k; i++) {
        int value = negascout(s, &kids[i], -color, gamma, alpha);
        if (s->stop)
            return 0;
        if (color * value > color * alpha && color * value < color * beta &&
            !lab_tree_is_leaf(s->tree, &kids[i]) && i != 0) {
            s->result.researches++;
            value = negascout(s, &kids[i], -color, beta, value);
            if (s->stop)
                return 0;
        }
        if (color * value > color * alpha)
            alpha = value;
        if (color * alpha >= color * beta)
            return alpha;
        gamma = alpha + color; /* the null window for the next move */
    }
    return alpha;
}

/* Textbook PVS, fail-hard: the first child decides the expected value, the
 * rest only have to be shown no better, with a null window. */
static int pvs(Search *s, const LabNode *v, int a, int b)
{
    LabNode kids[LAB_MAX_BRANCHING];
    int k = expand(s, v, kids);
    if (k == 0)
        return evaluate(s, v);
    for (int i = 0; i < k; i++) {
        int score;
        if (i == 0) {
            score = -pvs(s, &kids[i], -b, -a);
        } else {
            score = -pvs(s, &kids[i], -a - 1, -a);
            if (!s->stop && score > a && score < b) {
                s->result.researches++;
                score = -pvs(s, &kids[i], -b, -a);
            }
        }
        if (s->stop)
            return 0;
        if (score >= b)
            return b;
        if (score > a)
            a = score;
    }
    return a;
}

/* Records what a search of `id` with window (a, b) returned as g: an upper
 * bound if it failed low, a lower bound if high, else the exact value. */
static void remember(Search *s, uint64_t id, int g, int a, int b)
{
    bool added;
    Slot *slot = table_insert(&s->memory, id, &added);
    if (g <= a)
        slot->upper = g;
    else if (g >= b)
        slot->lower = g;
    else
        slot->lower = slot->upper = g;
}

/* Plaat's AlphaBetaWithMemory in negamax form, fail-soft: the bounds proven
 * earlier answer the call or narrow its window. Leaves are remembered as
 * exact values, so each is evaluated once per MTD(f) run. */
static int ab_memory(Search *s, const LabNode *v, int a, int b)
{
    const Slot *known = table_find(&s->memory, v->id);
    if (known) {
        if (known->lower == known->upper || known->lower >= b)
            return known->lower;
        if (known->upper <= a)
            return known->upper;
        a = known->lower > a ? known->lower : a;
        b = known->upper < b ? known->upper : b;
    }
    LabNode kids[LAB_MAX_BRANCHING];
    int k = expand(s, v, kids);
    if (k == 0) {
        int g = evaluate(s, v);
        remember(s, v->id, g, -LAB_INF, LAB_INF);
        return g;
    }
    int g = -LAB_INF, x = a;
    for (int i = 0; i < k && g < b; i++) {
        int r = -ab_memory(s, &kids[i], -b, -x);
        if (s->stop)
            return 0;
        g = r > g ? r : g;
        x = g > x ? g : x;
    }
    remember(s, v->id, g, a, b);
    return g;
}

/* MTD(f): null-window probes around the current guess until the lower and
 * the upper bound on the root's value meet. */
static int mtdf(Search *s, const LabNode *root, int guess)
{
    int g = guess, lower = -LAB_INF, upper = LAB_INF;
    while (lower < upper && !s->stop) {
        int beta = g == lower ? g + 1 : g;
        s->result.passes++;
        g = ab_memory(s, root, beta - 1, beta);
        if (g < beta)
            upper = g;
        else
            lower = g;
    }
    return g;
}

LabResult lab_search(const LabTree *tree, LabAlgo algo, const LabLimits *limits)
{
    Search s = search_begin(tree, limits);
    LabNode root = lab_tree_root(tree);
    int value = 0;
    switch (algo) {
    case LAB_MINIMAX: value = minimax(&s, &root); break;
    case LAB_ALPHABETA: value = negamax(&s, &root, -LAB_INF, LAB_INF); break;
    case LAB_NEGASCOUT: value = negascout(&s, &root, 1, -LAB_INF, LAB_INF); break;
    case LAB_PVS: value = pvs(&s, &root, -LAB_INF, LAB_INF); break;
    case LAB_MTDF: value = mtdf(&s, &root, limits ? limits->guess : 0); break;
    default: break;
    }
    return search_end(&s, value);
}

LabResult lab_alphabeta(const LabTree *tree, int alpha, int beta, const LabLimits *limits)
{
    Search s = search_begin(tree, limits);
    LabNode root = lab_tree_root(tree);
    int value = negamax(&s, &root, alpha, beta);
    return search_end(&s, value);
}

const char *lab_algo_name(LabAlgo algo)
{
    static const char *const names[LAB_ALGO_NB] = {"minimax", "alphabeta", "negascout", "pvs", "mtdf"};
    return algo < LAB_ALGO_NB ? names[algo] : "?";
}
