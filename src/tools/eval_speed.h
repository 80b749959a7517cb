#pragma once
/*
 * eval_speed.h — `bachess eval --speed EPD [ROUNDS]`: a benchmark, not a
 * test. Evaluates every position of an EPD file ROUNDS times (default
 * 2000) and prints evaluations a second: the hand-written evaluation with
 * its pawn table warm, the pawn structure alone (what a pawn-table miss
 * adds), and the built-in network from scratch (a full accumulator
 * refresh, the cost an incremental update avoids). `make bench-eval` runs
 * it on data/wac.epd. The figures depend on the machine; nothing is
 * asserted.
 */

/* argv holds what follows `--speed`; returns the process exit status. */
int eval_speed_command(int argc, char **argv);
