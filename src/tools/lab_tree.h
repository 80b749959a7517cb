#pragma once
/*
 * lab_tree.h — synthetic game trees for the game-tree lab (`bachess lab`),
 * computed on demand and never stored, so a tree with 35^8 leaves costs
 * nothing until a search walks into it.
 *
 * A node is named by its heap number: the root is 0 and child i of node n is
 * n * B + 1 + i, where B is the most children a node may have. Everything
 * about a node (how many children it has, a leaf's value) is a hash of the
 * tree's seed and that number, so the same seed gives the same tree on every
 * run and any node can be made without its siblings. Values are negamax
 * values: a leaf's value is seen from the side to move at that leaf; the
 * root's side to move is MAX.
 *
 * Ordering decides where the best child sits:
 *   random   leaf values are independent hashes in [-range, range];
 *   perfect  built top-down: each node carries its own negamax value, child 0
 *            gets exactly the value that makes it best, the others values no
 *            better for the parent — so the first child is always a best one;
 *   worst    built top-down from nested value intervals so that the children
 *            of every node get strictly better for the parent from first to
 *            last, and every value of a subtree lies strictly inside the window
 *            alpha-beta will search it with: alpha-beta then can cut nothing.
 *            This needs a value range of at least (B^ceil(t/2) + B^floor(t/2)) / 2
 *            and the tree widens a smaller one to that.
 * Shape: a uniform tree (min_branching == branching) has every leaf at depth
 * `depth`; otherwise each inner node has between min_branching and branching
 * children (a node with none is an early leaf) and no leaf is deeper than
 * `depth`. The three orderings work for both shapes.
 */
#include <stdbool.h>
#include <stdint.h>

enum {
    LAB_MAX_BRANCHING = 64,
    LAB_MAX_DEPTH = 16,
    LAB_MAX_VALUE = 1 << 28, /* |leaf value| never exceeds this */
};

typedef enum { LAB_ORDER_RANDOM, LAB_ORDER_PERFECT, LAB_ORDER_WORST, LAB_ORDER_NB } LabOrder;

typedef struct {
    LabOrder order;
    int branching;     /* b, or the most children of a node when not uniform */
    int min_branching; /* equal to branching for a uniform tree */
    int depth;         /* t: the depth of every leaf (uniform), of the deepest otherwise */
    int range;         /* leaf values lie in [-range, range] */
    uint64_t seed;
} LabTreeSpec;

typedef struct {
    LabTreeSpec spec; /* as given, except a range widened for worst ordering */
    /* Worst ordering: a node with d plies below it needs its value at least
     * need_below[d] above its interval's low end and need_above[d] below the
     * high end, so that its children fit strictly increasing values. */
    int64_t need_below[LAB_MAX_DEPTH + 1];
    int64_t need_above[LAB_MAX_DEPTH + 1];
} LabTree;

typedef struct {
    uint64_t id; /* heap number */
    int depth;
    int value;   /* perfect and worst ordering: the node's negamax value */
    int low;     /* worst ordering: the open interval its subtree lives in */
    int high;
} LabNode;

/* Checks the spec and prepares the tree; false (with a reason in `error`) if
 * the sizes exceed the limits above or the heap numbers would overflow. */
bool lab_tree_init(LabTree *tree, const LabTreeSpec *spec, const char **error);

/* A uniform tree of branching b and depth t; false as for lab_tree_init. */
bool lab_tree_uniform(LabTree *tree, LabOrder order, int b, int t, int range, uint64_t seed);

bool lab_tree_is_uniform(const LabTree *tree);

LabNode lab_tree_root(const LabTree *tree);

/* How many children `node` has; 0 means it is a leaf. */
int lab_tree_branching(const LabTree *tree, const LabNode *node);

static inline bool lab_tree_is_leaf(const LabTree *tree, const LabNode *node)
{
    return lab_tree_branching(tree, node) == 0;
}

/* Writes the children of `node` to out[0..n-1] (room for LAB_MAX_BRANCHING)
 * and returns n. */
int lab_tree_children(const LabTree *tree, const LabNode *node, LabNode *out);

/* A leaf's value, seen from the side to move at the leaf. */
int lab_tree_leaf_value(const LabTree *tree, const LabNode *leaf);

/* The side to move at a node: +1 for MAX (even depths), -1 for MIN. */
static inline int lab_node_color(const LabNode *node)
{
    return node->depth % 2 == 0 ? 1 : -1;
}

/* b^t, saturating at UINT64_MAX. */
uint64_t lab_power(uint64_t b, int t);

/* The Knuth–Moore minimum b^floor(t/2) + b^ceil(t/2) - 1: the leaves any
 * algorithm must evaluate to prove the value of a b/t-uniform tree. */
uint64_t lab_knuth_moore(int b, int t);

const char *lab_order_name(LabOrder order);
