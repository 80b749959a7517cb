#pragma once
/*
 * engine_options.h — the options the engine owns (hash, threads, lines,
 * strength, clock reserve, the search switches and the book) and the
 * settings their callbacks keep in step. The engine reads these fields,
 * never an option by name, so a misspelt setting cannot compile.
 */
#include <stdbool.h>

typedef struct {
    int multipv;            /* MultiPV */
    bool limit_strength;    /* UCI_LimitStrength */
    int elo;                /* UCI_Elo */
    bool analyse_mode;      /* UCI_AnalyseMode: no book moves */
    bool chess960;          /* UCI_Chess960 (XBoard: variant fischerandom) */
    int move_overhead_ms;   /* Move Overhead */
    bool own_book;          /* OwnBook */
    int book_depth;         /* BookDepth: plies of the game the book is used for */
    bool book_best_move;    /* BookBestMove */
    int syzygy_probe_depth; /* SyzygyProbeDepth */
    int syzygy_probe_limit; /* SyzygyProbeLimit: pieces */
    bool syzygy_fifty_move_rule; /* Syzygy50MoveRule */
} EngineSettings;

extern EngineSettings engine_settings;

/* Registers the engine's options in the option table (once). */
void engine_register_options(void);
