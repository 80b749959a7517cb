/*
 * test_lab.c — the game-tree lab (docs/lab.md) checked against theory.
 *
 * lab_tree:   the generator — reproducible, values in range, heap numbering,
 *             shapes, and (checked by full search, not trusted) that perfect
 *             ordering puts a best child first and worst ordering makes the
 *             children strictly better from first to last; the Knuth–Moore
 *             formula against the node-type recurrence of docs/lab.md.
 * lab_search: every algorithm returns the minimax value on 10,000 random
 *             trees of varied b, t, shape, ordering and value range; the bound
 *             lemma of the reference negamax on random windows, and its
 *             fail-hard/soft shape; alpha-beta evaluates exactly the
 *             Knuth–Moore minimum on perfectly ordered uniform trees and every
 *             leaf on worst-ordered ones; no algorithm evaluates fewer
 *             different leaves than the minimum on any uniform tree.
 * lab_table:  `bachess lab --data` on small sizes says the same.
 *
 * The reference value of every check comes from a plain negamax written here,
 * so the algorithms are never checked against each other alone. Under
 * BACHESS_TEST_LIGHT (the sanitizer run) the trees get smaller, never fewer.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "tools/lab.h"
#include "tools/lab_search.h"
#include "tools/lab_tree.h"

TestSuite(lab_tree, .timeout = 300);
TestSuite(lab_search, .timeout = 300);
TestSuite(lab_table, .timeout = 300);

enum { AGREE_TREES = 10000, AGREE_CHUNKS = 10 };

/* ---- helpers ---------------------------------------------------------------- */

/* Plain negamax: the value of `v` for the side to move there. */
static int reference(const LabTree *tree, const LabNode *v)
{
    LabNode kids[LAB_MAX_BRANCHING];
    int k = lab_tree_children(tree, v, kids);
    if (k == 0)
        return lab_tree_leaf_value(tree, v);
    int best = INT_MIN;
    for (int i = 0; i < k; i++) {
        int x = -reference(tree, &kids[i]);
        best = x > best ? x : best;
    }
    return best;
}

static int root_value(const LabTree *tree)
{
    LabNode root = lab_tree_root(tree);
    return reference(tree, &root);
}

/* A random tree spec with at most max_leaves leaves: b 1..8, t 0..7, one
 * third not uniform, any ordering, value ranges from 0 (all ties) to 2^28. */
static LabTreeSpec random_spec(TestRng *rng, uint64_t max_leaves)
{
    static const int ranges[] = {0, 1, 2, 3, 10, 100, 10000, LAB_MAX_VALUE};
    LabTreeSpec s;
    s.order = (LabOrder)rng_below(rng, LAB_ORDER_NB);
    s.branching = 1 + rng_below(rng, 8);
    s.depth = rng_below(rng, 8);
    while (lab_power((uint64_t)s.branching, s.depth) > max_leaves)
        s.depth--;
    s.min_branching = rng_below(rng, 3) == 0 ? rng_below(rng, s.branching + 1) : s.branching;
    s.range = ranges[rng_below(rng, (int)(sizeof ranges / sizeof ranges[0]))];
    s.seed = rng_next(rng);
    return s;
}

static void make_tree(LabTree *tree, const LabTreeSpec *spec)
{
    const char *error = NULL;
    cr_assert(lab_tree_init(tree, spec, &error), "spec rejected: %s", error ? error : "?");
}

static void make_uniform(LabTree *tree, LabOrder order, int b, int t, int range, uint64_t seed)
{
    cr_assert(lab_tree_uniform(tree, order, b, t, range, seed), "b=%d t=%d rejected", b, t);
}

static const char *describe(const LabTreeSpec *s, char *buf, size_t size)
{
    snprintf(buf, size, "%s b=%d..%d t=%d range=%d seed=%llu", lab_order_name(s->order), s->min_branching,
             s->branching, s->depth, s->range, (unsigned long long)s->seed);
    return buf;
}

/* ---- lab_tree ------------------------------------------------------------- */

/* Walks the tree depth-first, folding every node's number, depth and (for
 * leaves) value into *sum, and checking the structure on the way. */
static void walk(const LabTree *tree, const LabNode *v, uint64_t *sum, uint64_t *leaves)
{
    LabNode kids[LAB_MAX_BRANCHING];
    int k = lab_tree_children(tree, v, kids);
    cr_assert_eq(k, lab_tree_branching(tree, v));
    *sum = *sum * 1000003 + v->id * 31 + (uint64_t)v->depth;
    if (k == 0) {
        int x = lab_tree_leaf_value(tree, v);
        cr_assert(x >= -tree->spec.range && x <= tree->spec.range, "leaf value %d outside the range %d", x,
                  tree->spec.range);
        if (lab_tree_is_uniform(tree))
            cr_assert_eq(v->depth, tree->spec.depth, "uniform leaf at depth %d", v->depth);
        *sum = *sum * 1000003 + (uint64_t)(int64_t)x;
        (*leaves)++;
        return;
    }
    cr_assert(v->depth < tree->spec.depth);
    cr_assert(k >= tree->spec.min_branching && k <= tree->spec.branching);
    for (int i = 0; i < k; i++) {
        cr_assert_eq(kids[i].id, v->id * (uint64_t)tree->spec.branching + 1 + (uint64_t)i);
        cr_assert_eq(kids[i].depth, v->depth + 1);
        walk(tree, &kids[i], sum, leaves);
    }
}

Test(lab_tree, reproducible_in_range_and_well_formed)
{
    TestRng rng = {101};
    for (int n = 0; n < 500; n++) {
        LabTreeSpec spec = random_spec(&rng, 2000);
        LabTree a, b;
        make_tree(&a, &spec);
        make_tree(&b, &spec);
        LabNode ra = lab_tree_root(&a), rb = lab_tree_root(&b);
        uint64_t sa = 0, sb = 0, la = 0, lb = 0;
        walk(&a, &ra, &sa, &la);
        walk(&b, &rb, &sb, &lb);
        char buf[128];
        cr_assert_eq(sa, sb, "same spec, different trees: %s", describe(&spec, buf, sizeof buf));
        if (lab_tree_is_uniform(&a))
            cr_assert_eq(la, lab_power((uint64_t)spec.branching, spec.depth));
    }
}

/* A uniform random-ordered tree with a wide range: another seed must change
 * the leaf values (64 leaves from 20,001 values: a clash is negligible). */
Test(lab_tree, seed_changes_the_tree)
{
    for (uint64_t seed = 1; seed < 50; seed++) {
        LabTree a, b;
        make_uniform(&a, LAB_ORDER_RANDOM, 4, 3, 10000, seed);
        make_uniform(&b, LAB_ORDER_RANDOM, 4, 3, 10000, seed + 1000);
        LabNode ra = lab_tree_root(&a), rb = lab_tree_root(&b);
        uint64_t sa = 0, sb = 0, la = 0, lb = 0;
        walk(&a, &ra, &sa, &la);
        walk(&b, &rb, &sb, &lb);
        cr_assert_neq(sa, sb, "seeds %llu and %llu gave the same tree", (unsigned long long)seed,
                      (unsigned long long)seed + 1000);
    }
}

/* Every inner node: the carried value is the true negamax value, child 0 is
 * a best child and no child is better (perfect), or the children get strictly
 * better for the parent from first to last and the last is best (worst). */
static void check_ordering(const LabTree *tree, const LabNode *v, const char *what)
{
    LabNode kids[LAB_MAX_BRANCHING];
    int k = lab_tree_children(tree, v, kids);
    if (k == 0)
        return;
    int value = reference(tree, v);
    cr_assert_eq(v->value, value, "%s: node %llu carries %d, its value is %d", what, (unsigned long long)v->id,
                 v->value, value);
    int previous = INT_MIN;
    for (int i = 0; i < k; i++) {
        int x = -reference(tree, &kids[i]); /* child i seen from v */
        if (tree->spec.order == LAB_ORDER_PERFECT) {
            cr_assert(i == 0 ? x == value : x <= value, "%s: node %llu child %d is worth %d, node %d", what,
                      (unsigned long long)v->id, i, x, value);
        } else {
            cr_assert(x > previous, "%s: node %llu child %d (%d) not better than child %d (%d)", what,
                      (unsigned long long)v->id, i, x, i - 1, previous);
            previous = x;
        }
        check_ordering(tree, &kids[i], what);
    }
    if (tree->spec.order == LAB_ORDER_WORST)
        cr_assert_eq(previous, value, "%s: the last child of node %llu is not the best", what,
                     (unsigned long long)v->id);
}

static void check_orderings(LabOrder order, uint64_t seed)
{
    TestRng rng = {seed};
    for (int n = 0; n < 400; n++) {
        LabTreeSpec spec = random_spec(&rng, 1000);
        spec.order = order;
        LabTree tree;
        make_tree(&tree, &spec);
        LabNode root = lab_tree_root(&tree);
        char buf[128];
        check_ordering(&tree, &root, describe(&spec, buf, sizeof buf));
    }
}

Test(lab_tree, perfect_ordering_puts_a_best_child_first)
{
    check_orderings(LAB_ORDER_PERFECT, 202);
}

Test(lab_tree, worst_ordering_improves_child_by_child)
{
    check_orderings(LAB_ORDER_WORST, 303);
}

/* The node-type derivation: with k_1, k_2, k_3 the nodes of type 1, 2, 3 on a
 * level, k_1(t) = k_1(t-1), k_2(t) = (b-1) k_1(t-1) + b k_3(t-1),
 * k_3(t) = k_2(t-1); the critical leaves are their sum at level t. */
Test(lab_tree, knuth_moore_formula_matches_the_node_type_recurrence)
{
    for (int b = 1; b <= 40; b++) {
        uint64_t k1 = 1, k2 = 0, k3 = 0;
        for (int t = 0; t <= 10; t++) {
            cr_assert_eq(lab_knuth_moore(b, t), k1 + k2 + k3, "b=%d t=%d: %llu, recurrence %llu", b, t,
                         (unsigned long long)lab_knuth_moore(b, t), (unsigned long long)(k1 + k2 + k3));
            uint64_t n2 = (uint64_t)(b - 1) * k1 + (uint64_t)b * k3, n3 = k2;
            k2 = n2;
            k3 = n3;
        }
    }
}

Test(lab_tree, rejects_what_it_cannot_number)
{
    static const LabTreeSpec bad[] = {
        {LAB_ORDER_RANDOM, 0, 0, 3, 10, 1},                     /* no branching */
        {LAB_ORDER_RANDOM, LAB_MAX_BRANCHING + 1, 2, 3, 10, 1}, /* too wide */
        {LAB_ORDER_RANDOM, 4, 5, 3, 10, 1},                     /* min above max */
        {LAB_ORDER_RANDOM, 4, 4, LAB_MAX_DEPTH + 1, 10, 1},     /* too deep */
        {LAB_ORDER_RANDOM, 4, 4, 3, LAB_MAX_VALUE + 1, 1},      /* values too large */
        {LAB_ORDER_RANDOM, 64, 64, 16, 10, 1},                  /* heap numbers overflow */
        {LAB_ORDER_WORST, 20, 20, 13, 10, 1},                   /* worst needs 20^7 > 2^28 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        LabTree tree;
        const char *error = NULL;
        cr_assert_not(lab_tree_init(&tree, &bad[i], &error), "spec %zu accepted", i);
        cr_assert_not_null(error);
    }
}

/* ---- lab_search ------------------------------------------------------------- */

/* All algorithms on one tree: the reference value, distinct == leaves where
 * no leaf can come back (minimax, alpha-beta, MTD(f) with its memory), and
 * no fewer different leaves than the Knuth–Moore minimum on uniform trees. */
static void check_agreement(const LabTree *tree, int guess)
{
    char buf[128];
    const char *what = describe(&tree->spec, buf, sizeof buf);
    int value = root_value(tree);
    uint64_t km = lab_knuth_moore(tree->spec.branching, tree->spec.depth);
    for (int a = 0; a < LAB_ALGO_NB; a++) {
        LabLimits limits = {.track_distinct = true, .guess = guess};
        LabResult r = lab_search(tree, (LabAlgo)a, &limits);
        cr_assert(r.complete);
        cr_assert_eq(r.value, value, "%s on %s (guess %d): %d, minimax %d", lab_algo_name((LabAlgo)a), what, guess,
                     r.value, value);
        cr_assert(r.distinct >= 1 && r.distinct <= r.leaves);
        if (a != LAB_NEGASCOUT && a != LAB_PVS)
            cr_assert_eq(r.distinct, r.leaves, "%s on %s evaluated a leaf twice", lab_algo_name((LabAlgo)a), what);
        if (lab_tree_is_uniform(tree))
            cr_assert(r.distinct >= km, "%s on %s: %llu different leaves, below the minimum %llu",
                      lab_algo_name((LabAlgo)a), what, (unsigned long long)r.distinct, (unsigned long long)km);
    }
}

/* 10,000 random trees in AGREE_CHUNKS tests, so that --jobs spreads them. */
static void agree_chunk(int chunk)
{
    TestRng rng = {1000 + (uint64_t)chunk};
    uint64_t max_leaves = test_light() ? 1500 : 4000;
    for (int n = 0; n < AGREE_TREES / AGREE_CHUNKS; n++) {
        LabTreeSpec spec = random_spec(&rng, max_leaves);
        LabTree tree;
        make_tree(&tree, &spec);
        int guess = rng_below(&rng, 2 * tree.spec.range + 5) - tree.spec.range - 2;
        check_agreement(&tree, guess);
    }
}

Test(lab_search, agree_0) { agree_chunk(0); }
Test(lab_search, agree_1) { agree_chunk(1); }
Test(lab_search, agree_2) { agree_chunk(2); }
Test(lab_search, agree_3) { agree_chunk(3); }
Test(lab_search, agree_4) { agree_chunk(4); }
Test(lab_search, agree_5) { agree_chunk(5); }
Test(lab_search, agree_6) { agree_chunk(6); }
Test(lab_search, agree_7) { agree_chunk(7); }
Test(lab_search, agree_8) { agree_chunk(8); }
Test(lab_search, agree_9) { agree_chunk(9); }

/* A window (alpha, beta), alpha < beta, of one of five kinds: anywhere, a
 * null window anywhere, a narrow one around the value, or open on one side. */
static void random_window(TestRng *rng, int value, int range, int *alpha, int *beta)
{
    int span = 2 * range + 5, a = rng_below(rng, span) - range - 2, b = rng_below(rng, span) - range - 2;
    switch (rng_below(rng, 5)) {
    case 0: *alpha = a < b ? a : b; *beta = a < b ? b : a + (a == b); break;
    case 1: *alpha = a; *beta = a + 1; break;
    case 2: *alpha = value - rng_below(rng, 3); *beta = value + 1 - rng_below(rng, 2) + rng_below(rng, 2); break;
    case 3: *alpha = -LAB_INF; *beta = a; break;
    default: *alpha = a; *beta = LAB_INF; break;
    }
    if (*beta <= *alpha)
        *beta = *alpha + 1;
}

static bool has_leaf_child(const LabTree *tree)
{
    LabNode root = lab_tree_root(tree), kids[LAB_MAX_BRANCHING];
    int k = lab_tree_children(tree, &root, kids);
    for (int i = 0; i < k; i++)
        if (lab_tree_is_leaf(tree, &kids[i]))
            return true;
    return false;
}

/* The bound lemma: x <= alpha if F <= alpha, x = F inside, x >= beta if
 * F >= beta. Beyond it, the reference form is fail-hard below (an inner root
 * returns alpha itself when it fails low, never less), its fail-high values
 * are sound (beta <= x <= F), and it exceeds beta only through a leaf child. */
Test(lab_search, bound_lemma_on_random_windows)
{
    TestRng rng = {404};
    int cases[3] = {0, 0, 0};
    for (int n = 0; n < 20000; n++) {
        LabTreeSpec spec = random_spec(&rng, test_light() ? 500 : 1500);
        LabTree tree;
        make_tree(&tree, &spec);
        int value = root_value(&tree), alpha, beta;
        random_window(&rng, value, tree.spec.range, &alpha, &beta);
        LabResult r = lab_alphabeta(&tree, alpha, beta, NULL);
        int x = r.value;
        char buf[128];
        const char *what = describe(&spec, buf, sizeof buf);
        cr_assert(r.complete);
        if (value <= alpha) {
            cases[0]++;
            cr_assert(x <= alpha, "%s (%d, %d): F=%d, x=%d", what, alpha, beta, value, x);
        } else if (value < beta) {
            cases[1]++;
            cr_assert_eq(x, value, "%s (%d, %d): F=%d, x=%d", what, alpha, beta, value, x);
        } else {
            cases[2]++;
            cr_assert(x >= beta && x <= value, "%s (%d, %d): F=%d, x=%d", what, alpha, beta, value, x);
        }
        LabNode root = lab_tree_root(&tree);
        if (lab_tree_is_leaf(&tree, &root)) {
            cr_assert_eq(x, value);
            continue;
        }
        cr_assert(x >= alpha, "%s (%d, %d): x=%d below alpha", what, alpha, beta, x);
        if (value <= alpha)
            cr_assert_eq(x, alpha, "%s (%d, %d): failed low to %d, not alpha", what, alpha, beta, x);
        if (x > beta)
            cr_assert(has_leaf_child(&tree), "%s (%d, %d): x=%d above beta without a leaf child", what, alpha,
                      beta, x);
    }
    cr_log_info("bound lemma: %d fail-low, %d exact, %d fail-high windows", cases[0], cases[1], cases[2]);
    for (int i = 0; i < 3; i++)
        cr_assert(cases[i] >= 2000, "case %d checked only %d times", i, cases[i]);
}

/* Perfect ordering, uniform trees: alpha-beta evaluates exactly the minimum
 * b^floor(t/2) + b^ceil(t/2) - 1. NegaScout and PVS search the same minimal
 * tree (their null windows never fail high), and MTD(f)'s first fail-soft
 * probe returns the exact value, so two passes prove it on the same leaves:
 * all four must hit the minimum exactly. */
Test(lab_search, perfect_ordering_meets_knuth_moore)
{
    static const int bs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 35};
    uint64_t limit = test_light() ? 50000 : 200000;
    int checked = 0;
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) {
        for (int t = 0; t <= 8 && lab_knuth_moore(bs[i], t) <= limit; t++) {
            uint64_t km = lab_knuth_moore(bs[i], t);
            for (int s = 0; s < (km < 5000 ? 5 : 1); s++) {
                LabTree tree;
                make_uniform(&tree, LAB_ORDER_PERFECT, bs[i], t, s % 2 ? 3 : 10000, 77 * (uint64_t)s + 5);
                int value = lab_tree_root(&tree).value;
                for (int a = LAB_ALPHABETA; a < LAB_ALGO_NB; a++) {
                    LabLimits limits = {.track_distinct = true};
                    LabResult r = lab_search(&tree, (LabAlgo)a, &limits);
                    cr_assert_eq(r.value, value);
                    cr_assert_eq(r.leaves, km, "%s b=%d t=%d seed %d: %llu leaves, minimum %llu",
                                 lab_algo_name((LabAlgo)a), bs[i], t, s, (unsigned long long)r.leaves,
                                 (unsigned long long)km);
                    cr_assert_eq(r.distinct, km);
                    cr_assert_eq(r.researches, 0);
                    if (a == LAB_MTDF)
                        cr_assert_eq(r.passes, 2, "b=%d t=%d: %llu passes", bs[i], t, (unsigned long long)r.passes);
                }
                checked++;
            }
        }
    }
    cr_log_info("Knuth–Moore minimum met exactly on %d perfectly ordered trees", checked);
}

/* Worst ordering, uniform trees: alpha-beta evaluates all b^t leaves. */
Test(lab_search, worst_ordering_costs_alphabeta_every_leaf)
{
    uint64_t limit = test_light() ? 50000 : 300000;
    for (int b = 1; b <= 35; b++) {
        for (int t = 0; t <= 8 && lab_power((uint64_t)b, t) <= limit; t++) {
            uint64_t all = lab_power((uint64_t)b, t);
            LabTree tree;
            make_uniform(&tree, LAB_ORDER_WORST, b, t, 100, (uint64_t)(b * 100 + t));
            LabResult r = lab_search(&tree, LAB_ALPHABETA, NULL);
            cr_assert_eq(r.value, root_value(&tree));
            cr_assert_eq(r.leaves, all, "b=%d t=%d: %llu leaves of %llu", b, t, (unsigned long long)r.leaves,
                         (unsigned long long)all);
        }
    }
}

/* The reference NegaScout skips the re-search when the child is a leaf (its
 * null-window value is already exact); textbook PVS does not. One ply of a
 * worst-ordered tree makes every later child better: NegaScout evaluates b
 * leaves, PVS evaluates the b - 1 later ones twice. */
Test(lab_search, negascout_never_researches_a_leaf)
{
    for (int b = 1; b <= 20; b++) {
        LabTree tree;
        make_uniform(&tree, LAB_ORDER_WORST, b, 1, 1000, (uint64_t)b);
        LabResult ns = lab_search(&tree, LAB_NEGASCOUT, NULL), pv = lab_search(&tree, LAB_PVS, NULL);
        cr_assert_eq(ns.leaves, (uint64_t)b);
        cr_assert_eq(ns.researches, 0);
        cr_assert_eq(pv.leaves, (uint64_t)(2 * b - 1));
        cr_assert_eq(pv.researches, (uint64_t)(b - 1));
    }
}

/* A budget stops the run and marks it incomplete. */
Test(lab_search, budget_stops_a_run)
{
    LabTree tree;
    make_uniform(&tree, LAB_ORDER_RANDOM, 10, 5, 1000, 9);
    for (int a = 0; a < LAB_ALGO_NB; a++) {
        LabLimits limits = {.budget = 500};
        LabResult r = lab_search(&tree, (LabAlgo)a, &limits);
        cr_assert_not(r.complete, "%s finished within 500 leaves", lab_algo_name((LabAlgo)a));
        cr_assert_eq(r.leaves, 501);
    }
}

/* ---- lab_table ------------------------------------------------------------ */

/* `bachess lab --data` on small sizes: minimax evaluates b^t, alpha-beta the
 * minimum (perfect) or b^t (worst), nothing goes below the minimum, and all
 * complete runs on a tree agreed. */
Test(lab_table, data_lines_agree_with_theory)
{
    LabConfig config = lab_default_config();
    config.max_depth = 5;
    config.max_leaves = 20000;
    config.trees = 2;
    config.data = true;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    cr_assert_not_null(out);
    lab_print(out, &config);
    fclose(out);

    int lines = 0, summaries = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned long long runs, disagreements, km, all;
        double leaves, distinct, inner, ratio, researches, passes;
        char order[16], algo[16];
        int b, t;
        if (sscanf(line, "# runs %llu disagreements %llu", &runs, &disagreements) == 2) {
            summaries++;
            cr_assert(runs > 0);
            cr_assert_eq(disagreements, 0);
            continue;
        }
        if (line[0] == '#')
            continue;
        cr_assert_eq(sscanf(line, "%15s %d %d %15s %llu %llu %lf %lf %lf %lf %lf %lf", order, &b, &t, algo, &km, &all,
                            &leaves, &distinct, &inner, &ratio, &researches, &passes),
                     12, "bad line: %s", line);
        lines++;
        cr_assert_eq(km, lab_knuth_moore(b, t));
        cr_assert_eq(all, lab_power((uint64_t)b, t));
        cr_assert(distinct >= (double)km, "%s", line);
        if (strcmp(algo, "minimax") == 0)
            cr_assert(leaves == (double)all, "%s", line);
        if (strcmp(algo, "alphabeta") == 0 && strcmp(order, "perfect") == 0)
            cr_assert(leaves == (double)km, "%s", line);
        if (strcmp(algo, "alphabeta") == 0 && strcmp(order, "worst") == 0)
            cr_assert(leaves == (double)all, "%s", line);
    }
    free(text);
    cr_assert_eq(summaries, 1);
    cr_assert(lines >= 50, "only %d data lines", lines);
}
