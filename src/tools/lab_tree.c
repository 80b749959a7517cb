/* lab_tree.c — synthetic game trees made on demand from (seed, heap number). */
#include "tools/lab_tree.h"

#include <stddef.h>

#include "splitmix.h"

/* What a node's hash is drawn for; each purpose gets its own stream. */
enum { SALT_BRANCHING = 1, SALT_VALUE = 2, SALT_WEIGHT = 3 };

static uint64_t node_hash(const LabTree *tree, uint64_t id, uint64_t salt)
{
    /* The finaliser keeps sibling values uncorrelated. */
    return splitmix64_mix(tree->spec.seed ^ splitmix64_mix(id * 0x9E3779B97F4A7C15ULL + salt));
}

/* A number in [low, high] (inclusive) drawn from hash h. */
static int64_t draw(uint64_t h, int64_t low, int64_t high)
{
    return low + (int64_t)(h % (uint64_t)(high - low + 1));
}

uint64_t lab_power(uint64_t b, int t)
{
    uint64_t p = 1;
    for (int i = 0; i < t; i++) {
        if (b != 0 && p > UINT64_MAX / b)
            return UINT64_MAX;
        p *= b;
    }
    return p;
}

uint64_t lab_knuth_moore(int b, int t)
{
    uint64_t lo = lab_power((uint64_t)b, t / 2), hi = lab_power((uint64_t)b, (t + 1) / 2);
    if (lo == UINT64_MAX || hi == UINT64_MAX || hi > UINT64_MAX - lo)
        return UINT64_MAX;
    return lo + hi - 1;
}

const char *lab_order_name(LabOrder order)
{
    static const char *const names[LAB_ORDER_NB] = {"random", "perfect", "worst"};
    return order < LAB_ORDER_NB ? names[order] : "?";
}

static const char *check_spec(const LabTreeSpec *s)
{
    if (s->order >= LAB_ORDER_NB)
        return "unknown ordering";
    if (s->branching < 1 || s->branching > LAB_MAX_BRANCHING)
        return "branching must be from 1 to 64";
    if (s->min_branching < 0 || s->min_branching > s->branching)
        return "min_branching must be from 0 to branching";
    if (s->depth < 0 || s->depth > LAB_MAX_DEPTH)
        return "depth must be from 0 to 16";
    if (s->range < 0 || s->range > LAB_MAX_VALUE)
        return "range must be from 0 to 2^28";
    /* The deepest heap number is below B^(t+1); keep it clear of 2^63. */
    if (lab_power((uint64_t)s->branching, s->depth + 1) >= (1ULL << 62))
        return "tree too large to number its nodes";
    return NULL;
}

/* Worst ordering: a node with d plies below it lists its children's values
 * c_0 < ... < c_{k-1} = its value, each gap at least need_above[d-1] (the
 * room its child needs above its own value); its value needs need_above[d]
 * = need_below[d-1] below the interval's top for its last child. Solved:
 * need_below[d] = B^ceil(d/2), need_above[d] = B^floor(d/2). */
static const char *prepare_worst(LabTree *tree)
{
    int64_t b = tree->spec.branching;
    tree->need_below[0] = tree->need_above[0] = 1;
    for (int d = 1; d <= tree->spec.depth; d++) {
        tree->need_below[d] = b * tree->need_above[d - 1];
        tree->need_above[d] = tree->need_below[d - 1];
    }
    int t = tree->spec.depth;
    int64_t span = tree->need_below[t] + tree->need_above[t]; /* needed high - low */
    int64_t range = (span - 1) / 2;                           /* 2 * range + 2 >= span */
    if (range > LAB_MAX_VALUE)
        return "worst ordering needs a value range above 2^28";
    if (range > tree->spec.range)
        tree->spec.range = (int)range;
    return NULL;
}

bool lab_tree_init(LabTree *tree, const LabTreeSpec *spec, const char **error)
{
    const char *why = check_spec(spec);
    if (!why) {
        tree->spec = *spec;
        if (spec->order == LAB_ORDER_WORST)
            why = prepare_worst(tree);
    }
    if (error)
        *error = why;
    return why == NULL;
}

bool lab_tree_uniform(LabTree *tree, LabOrder order, int b, int t, int range, uint64_t seed)
{
    LabTreeSpec spec = {order, b, b, t, range, seed};
    return lab_tree_init(tree, &spec, NULL);
}

bool lab_tree_is_uniform(const LabTree *tree)
{
    return tree->spec.min_branching == tree->spec.branching;
}

LabNode lab_tree_root(const LabTree *tree)
{
    LabNode root = {0};
    int range = tree->spec.range, t = tree->spec.depth;
    if (tree->spec.order == LAB_ORDER_PERFECT) {
        root.value = (int)draw(node_hash(tree, 0, SALT_VALUE), -range, range);
    } else if (tree->spec.order == LAB_ORDER_WORST) {
        root.low = -range - 1;
        root.high = range + 1;
        root.value = (int)draw(node_hash(tree, 0, SALT_VALUE), root.low + tree->need_below[t],
                               root.high - tree->need_above[t]);
    }
    return root;
}

int lab_tree_branching(const LabTree *tree, const LabNode *node)
{
    const LabTreeSpec *s = &tree->spec;
    if (node->depth >= s->depth)
        return 0;
    if (s->min_branching == s->branching)
        return s->branching;
    return (int)draw(node_hash(tree, node->id, SALT_BRANCHING), s->min_branching, s->branching);
}

/* Child 0 gets the negation of the parent's value, so it is a best child;
 * the others get values at least as good for themselves, hence no better
 * for the parent. */
static void perfect_values(const LabTree *tree, const LabNode *node, LabNode *out, int k)
{
    out[0].value = -node->value;
    for (int i = 1; i < k; i++)
        out[i].value = (int)draw(node_hash(tree, out[i].id, SALT_VALUE), -node->value, tree->spec.range);
}

/* Splits [low, value] into k strictly increasing child values (seen from the
 * parent), each gap at least the room a child needs, the slack spread by
 * random weights. Child i lives in (-high, -c_{i-1}): inside the window
 * alpha-beta gives it once c_{i-1} is the best so far. */
static void worst_values(const LabTree *tree, const LabNode *node, LabNode *out, int k)
{
    int64_t step = tree->need_above[tree->spec.depth - node->depth - 1];
    int64_t slack = (int64_t)node->value - node->low - k * step;
    uint64_t weight[LAB_MAX_BRANCHING], total = 0;
    for (int i = 0; i < k; i++)
        total += weight[i] = node_hash(tree, out[i].id, SALT_WEIGHT) % 1024 + 1;
    int64_t prev = node->low;
    for (int i = 0; i < k; i++) {
        int64_t c = i == k - 1 ? node->value : prev + step + (int64_t)((uint64_t)slack * weight[i] / total);
        out[i].value = (int)-c;
        out[i].low = -node->high;
        out[i].high = (int)-prev;
        prev = c;
    }
}

int lab_tree_children(const LabTree *tree, const LabNode *node, LabNode *out)
{
    int k = lab_tree_branching(tree, node);
    uint64_t b = (uint64_t)tree->spec.branching;
    for (int i = 0; i < k; i++)
        out[i] = (LabNode){.id = node->id * b + 1 + (uint64_t)i, .depth = node->depth + 1};
    if (k > 0 && tree->spec.order == LAB_ORDER_PERFECT)
        perfect_values(tree, node, out, k);
    else if (k > 0 && tree->spec.order == LAB_ORDER_WORST)
        worst_values(tree, node, out, k);
    return k;
}

int lab_tree_leaf_value(const LabTree *tree, const LabNode *leaf)
{
    if (tree->spec.order != LAB_ORDER_RANDOM)
        return leaf->value;
    int range = tree->spec.range;
    return (int)draw(node_hash(tree, leaf->id, SALT_VALUE), -range, range);
}
