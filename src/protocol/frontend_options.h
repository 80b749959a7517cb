#pragma once
/*
 * frontend_options.h — the options that belong to the front ends rather
 * than the engine: Ponder (a UCI GUI's notice that it may ponder),
 * UCI_ShowWDL, ResignScore (XBoard), PGNLog and ConnTrace, with the
 * settings their callbacks keep in step.
 */
#include <stdbool.h>

#include "options.h"

typedef struct {
    bool ponder;                       /* Ponder */
    bool show_wdl;                     /* UCI_ShowWDL */
    int resign_score;                  /* ResignScore: centipawns, 0 = never */
    char pgn_log[OPTION_TEXT_SIZE];    /* PGNLog: file to append games to, "" = off */
} FrontEndSettings;

extern FrontEndSettings frontend_settings;

/* Registers the front ends' options in the option table (once). */
void frontend_register_options(void);
