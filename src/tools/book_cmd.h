#pragma once
/*
 * book_cmd.h — the `bachess book build|probe|key|info|dump|walk|read …`
 * sub-commands: opening books and PGN files from the command line.
 */

/* argv holds what follows `book`; returns the process exit status. */
int book_command(int argc, char **argv);
