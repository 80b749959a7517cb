#pragma once
/*
 * uci.h — the Universal Chess Interface front end. It parses the GUI's
 * lines into engine calls and formats the engine's reports as UCI output;
 * it never thinks itself.
 */
#include <stdbool.h>
#include <stdio.h>

/* Runs the UCI dialogue on stdin/stdout; `first_line` is the line that
 * selected the protocol (normally "uci"). Returns at `quit` or end of input. */
int uci_loop(const char *first_line);

/* Handles one line; returns false on `quit`. Exposed for tests and fuzzing. */
bool uci_command(char *line);
