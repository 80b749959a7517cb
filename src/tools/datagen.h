#pragma once
/*
 * datagen.h — `bachess datagen`: self-play games that make training data
 * for the NNUE evaluation (docs/datagen.md).
 *
 * Each game starts from the start position or a line of an openings file,
 * plus a few random legal plies; an opening whose score after a short
 * search is absurd is drawn again. Every move is a search of a fixed number
 * of nodes, one thread, the table and histories cleared at the start of the
 * game. Games end by the rules or by adjudication (a score beyond a bound
 * for several plies wins; a score near zero late in the game draws).
 * Quiet positions — not in check, best move neither capture nor promotion,
 * no mate score — are written with their score and the game's result as
 * 32-byte records (tools/packed_position.h), appended to the output file a
 * whole game at a time.
 *
 * Game g is played with a random generator seeded from (seed, g) alone, so
 * a run is the same for a given seed whatever the number of workers: the
 * workers are processes (each with its own engine and table), and the
 * parent writes their games in game order.
 */

/* argv holds what follows `datagen`; returns the process exit status. */
int datagen_command(int argc, char **argv);
