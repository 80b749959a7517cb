#pragma once
/*
 * engine_settings.h — the settings the engine and its book read: plain
 * values, filled by the callbacks of the engine's options
 * (engine_options.c). The engine reads these fields, never an option by
 * name, so a misspelt setting cannot compile; and it needs no knowledge of
 * the option table, which lets the options sit above the engine.
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

/* Defined in engine.c; written only by the options' callbacks. */
extern EngineSettings engine_settings;
