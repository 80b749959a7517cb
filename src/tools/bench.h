#pragma once
/*
 * bench.h — the `bench` sub-command: a fixed set of positions searched to a
 * fixed depth with one thread, the table cleared between them. The total
 * node count is a signature of the search's behaviour: it changes only
 * when the search or evaluation changes. Also prints the search's
 * efficiency figures: first-move cut-off rate, effective branching factor
 * and the share of nodes spent in quiescence.
 */
int bench_command(int argc, char **argv);
