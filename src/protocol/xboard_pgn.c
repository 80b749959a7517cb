/* xboard_pgn.c — the PGNLog record of XBoard games. */
#include "protocol/xboard_pgn.h"

#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "games/gamelog.h"
#include "protocol/frontend_options.h"
#include "protocol/output.h"

static struct {
    GameLog log;
    bool active;        /* the log follows the game (a valid start, every move legal) */
    bool engine_moved;  /* a game worth keeping */
    char opponent[GAMELOG_TAG_VALUE];
} pgn;

void xboard_pgn_start(const char *fen)
{
    char error[128];
    pgn.active = gamelog_start_960(&pgn.log, fen, engine_board()->castle.chess960, error, sizeof error);
    pgn.engine_moved = false;
}

void xboard_pgn_move(Move m, bool by_engine)
{
    /* A move the log refuses means it lost track: stop recording. */
    if (pgn.active && !gamelog_add(&pgn.log, m))
        pgn.active = false;
    pgn.engine_moved |= by_engine;
}

void xboard_pgn_undo(void)
{
    if (pgn.active)
        gamelog_undo(&pgn.log);
}

void xboard_pgn_opponent(const char *name)
{
    snprintf(pgn.opponent, sizeof pgn.opponent, "%s", name ? name : "");
}

static GameResult result_from_text(const char *text)
{
    if (!text)
        return RESULT_NONE;
    if (strcmp(text, "1-0") == 0)
        return RESULT_WHITE_WINS;
    if (strcmp(text, "0-1") == 0)
        return RESULT_BLACK_WINS;
    return strcmp(text, "1/2-1/2") == 0 ? RESULT_DRAW : RESULT_NONE;
}

void xboard_pgn_finish(const char *result, const char *reason, Color engine_color)
{
    const char *path = frontend_settings.pgn_log;
    bool keep = pgn.active && pgn.engine_moved && *path;
    pgn.engine_moved = false;
    if (!keep)
        return;
    const char *opponent = *pgn.opponent ? pgn.opponent : "?";
    gamelog_set_tag(&pgn.log, "Event", "bachess XBoard game");
    gamelog_set_tag(&pgn.log, "White", engine_color == WHITE ? "bachess" : opponent);
    gamelog_set_tag(&pgn.log, "Black", engine_color == BLACK ? "bachess" : opponent);
    GameResult r = result_from_text(result);
    if (r != RESULT_NONE)
        gamelog_finish(&pgn.log, r, reason);
    else
        gamelog_finish_by_rules(&pgn.log);
    char error[256];
    if (!gamelog_append_to_file(&pgn.log, path, error, sizeof error))
        out_line("# PGNLog: %s", error);
}

void xboard_pgn_free(void)
{
    gamelog_free(&pgn.log);
    pgn.active = false;
}
