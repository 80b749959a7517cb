#pragma once
/*
 * console.h — chess at a terminal.
 *
 * A person plays against the engine (White by default), or watches it play
 * itself, or two people share the keyboard. The board is drawn with
 * Unicode chess symbols when the terminal speaks UTF-8, in ASCII letters
 * otherwise. Moves are typed in SAN or coordinates; anything that is not a
 * legal move is answered with the list of the legal ones. Every game is
 * appended to a PGN file (games.pgn unless told otherwise) when it ends,
 * or when a new one begins or the program ends in the middle of one.
 * The engine is reached only through the engine.h façade.
 */

/* Runs the console until `quit` or end of input, starting with the line
 * already read (which decided that this is not a protocol). Returns the
 * process exit status. */
int console_loop(const char *first_line);
