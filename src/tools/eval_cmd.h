#pragma once
/*
 * eval_cmd.h — `bachess eval [--net FILE] [FEN]`: the hand-written
 * evaluation term by term, and the NNUE network's value of the same
 * position when a network is given. `bachess eval --speed EPD [ROUNDS]`
 * is the evaluation's benchmark (tools/eval_speed.h).
 */

/* argv holds what follows `eval`; returns the process exit status. */
int eval_command(int argc, char **argv);
