#pragma once
/*
 * lab.h — the `bachess lab` sub-command: runs every lab algorithm on uniform
 * synthetic trees (b in {2, 5, 10, 20, 35}, t from 2 up to a maximum depth,
 * perfect, random and worst ordering) and prints the leaf evaluations of
 * each beside the Knuth–Moore minimum, as Markdown tables or as plain data
 * lines for plotting.
 *
 * Trees are never stored, but the work is real, so each run has a budget of
 * leaf evaluations: a run that exceeds it is abandoned and shown as "—", and
 * the same algorithm is not tried deeper for that b and ordering. Each cell is
 * the mean over a number of trees with different seeds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t max_leaves; /* budget of leaf evaluations per run */
    int trees;           /* trees per cell */
    int max_depth;       /* t runs from 2 to this */
    int range;           /* leaf values in [-range, range] */
    uint64_t seed;
    bool data;           /* data lines instead of Markdown */
    const char *data_out; /* also write the data lines to this file (NULL: no) */
} LabConfig;

/* The defaults: 4,000,000 leaves, 3 trees, depth 8, range 10,000, seed 1. */
LabConfig lab_default_config(void);

/* Measures and prints the tables (or data lines) to `out`, and the data
 * lines to config->data_out if set; false if that file cannot be written. */
bool lab_print(FILE *out, const LabConfig *config);

/* The sub-command; argv holds the options after "lab". */
int lab_command(int argc, char **argv);
