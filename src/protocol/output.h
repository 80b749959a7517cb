#pragma once
/*
 * output.h — every line the engine says to a GUI or a person goes through
 * here: whole lines, flushed at once, under a lock, because the input
 * thread (readyok, pong, errors) and the search thread (info, bestmove)
 * both speak. When a trace file is open, both directions are logged to it
 * with a timestamp (option ConnTrace).
 */
#include <stdbool.h>

void out_line(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* One ready-made line, for callers that hand lines over one by one. */
void out_text_line(const char *line);
/* Sends every line to `sink` instead of standard output (NULL: back to
 * standard output); `bachess web` hands the engine's lines to its pages. */
void out_set_sink(void (*sink)(const char *line));
bool out_trace_open(const char *path);
void out_trace_close(void);
void out_trace_input(const char *line);
/* A line for the trace alone ("<ms> # text"). */
void out_trace_note(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* The engine's account of the turn its search just ended (engine.h,
 * TurnAccount), for the trace alone: called from on_bestmove. */
void out_trace_turn(void);
