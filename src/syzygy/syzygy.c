/* syzygy.c — the glue to Fathom (see syzygy.h). */
#include "syzygy/syzygy.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif
#include <unistd.h>
#include "syzygy/fathom/tbprobe.h"

#include "platform.h"
#include "movegen.h"

static pthread_mutex_t root_lock = PTHREAD_MUTEX_INITIALIZER;
static int largest;

/* Counts the table files (*.rtbw) in each directory of `paths`, naming the
 * first that is missing or unreadable. */
static int count_tables(const char *paths, char *problem, size_t size)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", paths);
    int tables = 0;
    problem[0] = '\0';
    for (char *save = NULL, *dir = strtok_r(copy, PLATFORM_PATH_SEPARATOR, &save); dir; dir = strtok_r(NULL, PLATFORM_PATH_SEPARATOR, &save)) {
        DIR *d = opendir(dir);
        if (!d) {
            if (!problem[0])
                snprintf(problem, size, "%.200s: %s", dir, strerror(errno));
            continue;
        }
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            size_t n = strlen(e->d_name);
            tables += n > 5 && strcmp(e->d_name + n - 5, ".rtbw") == 0;
        }
        closedir(d);
    }
    return tables;
}

/* ---- loading, with a check first ------------------------------------------
 * Fathom prints its complaints on standard output, which is the protocol's
 * channel, and it maps table files without checking that they are whole: a
 * truncated table crashes it when probed or freed. So a path is first tried
 * in a child process — load every table, probe positions of each material,
 * from the whole board over — and only a path that passes is loaded here,
 * with Fathom's output kept off the protocol. */

#ifdef _WIN32
/* Windows has no fork(): the tables are trusted as they are. */
static bool tables_are_sound(const char *paths, char *why, size_t size)
{
    (void)paths, (void)why, (void)size;
    return true;
}
#else
enum { PROBES_PER_TABLE = 256 };

/* A legal position of the material named by a table file ("KRvKP"), with
 * the pieces placed by `seed`; false if this placement is not legal. */
static bool position_of_material(const char *name, uint64_t seed, Board *b)
{
    char placement[64][2] = { { 0 } };
    const char *v = strchr(name, 'v');
    if (!v)
        return false;
    for (const char *c = name; *c && *c != '.'; c++) {
        if (*c == 'v')
            continue;
        bool white = c < v;
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        int square = (int)(seed >> 58);
        if (placement[square][0] || (*c == 'P' && (square < 8 || square >= 56)))
            return false;
        placement[square][0] = white ? *c : (char)(*c - 'A' + 'a');
    }
    char fen[100] = "";
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char p = placement[rank * 8 + file][0];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%d", empty), empty = 0;
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%c", p);
        }
        if (empty)
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%d", empty);
        if (rank)
            strcat(fen, "/");
    }
    strcat(fen, seed >> 63 ? " w - - 0 1" : " b - - 0 1");
    char error[128];
    return board_set_fen(b, fen, error, sizeof error);
}

/* In the child: probes every table found in `paths`. */
static void probe_every_table(const char *paths)
{
    static Board board;
    static SyzygyRoot root;
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", paths);
    for (char *save = NULL, *dir = strtok_r(copy, PLATFORM_PATH_SEPARATOR, &save); dir; dir = strtok_r(NULL, PLATFORM_PATH_SEPARATOR, &save)) {
        DIR *d = opendir(dir);
        for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
            if (!strstr(e->d_name, ".rtbw") && !strstr(e->d_name, ".rtbz"))
                continue;
            fprintf(stderr, "%s\n", e->d_name); /* the last name printed is the culprit */
            Wdl wdl;
            for (uint64_t seed = 1, done = 0; seed < 100000 && done < PROBES_PER_TABLE; seed++)
                if (position_of_material(e->d_name, seed * 0x9E3779B97F4A7C15ULL, &board) && syzygy_covers(&board)) {
                    done++;
                    if (strstr(e->d_name, ".rtbw"))
                        syzygy_probe_wdl(&board, &wdl);
                    else if (done % 16 == 0)
                        syzygy_rank_root(&board, true, &root);
                }
        }
        if (d)
            closedir(d);
    }
}

/* Runs the check in a child; false with the reason if the tables crash
 * Fathom or make it complain. */
static bool tables_are_sound(const char *paths, char *why, size_t size)
{
    int out[2];
    if (pipe(out) != 0)
        return snprintf(why, size, "cannot check the tables: %s", strerror(errno)), false;
    fflush(stdout);
    fflush(stderr);
    pid_t child = fork();
    if (child < 0)
        return snprintf(why, size, "cannot check the tables: %s", strerror(errno)), false;
    if (child == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        close(out[0]);
        if (!tb_init(paths) || TB_LARGEST == 0)
            _exit(3);
        largest = (int)TB_LARGEST;
        probe_every_table(paths);
        /* Loading again, as the engine does when the path changes, crashes
         * Fathom on some damaged files. */
        fprintf(stderr, "loading the tables again\n");
        tb_init(paths);
        fflush(NULL);
        _exit(0);
    }
    close(out[1]);
    char said[4096] = "";
    size_t used = 0;
    for (ssize_t n; used + 1 < sizeof said && (n = read(out[0], said + used, sizeof said - 1 - used)) > 0;)
        used += (size_t)n;
    said[used] = '\0';
    close(out[0]);
    int status;
    waitpid(child, &status, 0);
    /* Fathom's own complaint, or the last table the child was probing. */
    char *complaint = strstr(said, "ncomplete") ? strstr(said, "ncomplete") - 1 : NULL;
    char *last = said;
    for (char *line = strtok(said, "\n"); line; line = strtok(NULL, "\n"))
        last = line;
    if (WIFSIGNALED(status) && strcmp(last, "loading the tables again") == 0)
        return snprintf(why, size, "a damaged table (the reader failed on loading it again)"), false;
    if (WIFSIGNALED(status))
        return snprintf(why, size, "a damaged table (%.100s made the reader fail)", last), false;
    if (complaint)
        return snprintf(why, size, "a damaged table (I%.120s)", complaint + 1), false;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return snprintf(why, size, "no usable table"), false;
    return true;
}
#endif

/* tb_init with Fathom's output kept off the protocol's channel. */
static bool init_quietly(const char *paths)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), null = open(PLATFORM_NULL_DEVICE, O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, STDOUT_FILENO);
    bool ok = tb_init(paths);
    fflush(stdout);
    if (saved >= 0 && null >= 0)
        dup2(saved, STDOUT_FILENO);
    if (saved >= 0)
        close(saved);
    if (null >= 0)
        close(null);
    return ok;
}

int syzygy_init(const char *paths, char *message, size_t size)
{
    char problem[300] = "", why[300] = "";
    bool wanted = paths && *paths;
    int files = wanted ? count_tables(paths, problem, sizeof problem) : 0;
    /* The check runs before the lock is taken: the child must not inherit it held. */
    bool sound = files > 0 && tables_are_sound(paths, why, sizeof why);
    pthread_mutex_lock(&root_lock);
    /* No tb_free(): Fathom's frees the old tables itself when it loads new
     * ones, and its tb_free() leaves it unable to load again. */
    largest = 0;
    if (!wanted)
        snprintf(message, size, "no tablebases");
    else if (files == 0)
        snprintf(message, size, "no tablebases in '%.200s'%s%s", paths,
                 problem[0] ? ": " : "", problem);
    else if (!sound)
        snprintf(message, size, "tablebases in '%.200s' not used: %s", paths, why);
    else if (init_quietly(paths) && TB_LARGEST > 0) {
        largest = (int)TB_LARGEST;
        snprintf(message, size, "tablebases: up to %d pieces from %.200s (%d WDL files)%s%s", largest, paths, files,
                 problem[0] ? "; " : "", problem);
    } else
        snprintf(message, size, "no usable tablebases in '%.200s'", paths);
    pthread_mutex_unlock(&root_lock);
    return largest;
}

int syzygy_largest(void) { return largest; }

bool syzygy_covers(const Board *b)
{
    return largest > 0 && board_state(b)->castling == 0 && popcount(board_occupied(b)) <= largest;
}

typedef struct {
    uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
    unsigned ep;
    bool white_to_move;
} FathomPosition;

static FathomPosition fathom_position(const Board *b)
{
    unsigned ep = board_state(b)->ep_square;
    return (FathomPosition){
        .white = b->by_color[WHITE], .black = b->by_color[BLACK], .kings = b->by_type[KING],
        .queens = b->by_type[QUEEN], .rooks = b->by_type[ROOK], .bishops = b->by_type[BISHOP],
        .knights = b->by_type[KNIGHT], .pawns = b->by_type[PAWN], .ep = ep == NO_SQUARE ? 0 : ep,
        .white_to_move = b->side == WHITE,
    };
}

static Wdl wdl_of(unsigned fathom_wdl) { return (Wdl)((int)fathom_wdl - 2); }

bool syzygy_probe_wdl(const Board *b, Wdl *wdl)
{
    if (!syzygy_covers(b) || board_state(b)->rule50 != 0)
        return false;
    FathomPosition p = fathom_position(b);
    unsigned r = tb_probe_wdl(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns, 0, 0, p.ep,
                              p.white_to_move);
    if (r == TB_RESULT_FAILED)
        return false;
    *wdl = wdl_of(r);
    return true;
}

/* Our move for Fathom's (from, to, promotion), among the legal moves. */
static Move legal_move(const MoveList *legal, unsigned tb_move)
{
    Square from = (Square)TB_MOVE_FROM(tb_move), to = (Square)TB_MOVE_TO(tb_move);
    unsigned promotes = TB_MOVE_PROMOTES(tb_move);
    static const PieceType PROMOTION[] = { PAWN, QUEEN, ROOK, BISHOP, KNIGHT };
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        if (move_from(m) != from || move_to(m) != to)
            continue;
        bool is_promotion = move_kind(m) == MOVE_PROMOTION;
        if ((!is_promotion && promotes == TB_PROMOTES_NONE)
            || (is_promotion && promotes <= TB_PROMOTES_KNIGHT && move_promotion(m) == PROMOTION[promotes]))
            return m;
    }
    return MOVE_NONE;
}

/* A move's result from Fathom's root score: +-(TB_VALUE_MATE -
 * TB_MAX_MATE_PLY - 1) for a win or loss, a small value for a win or loss
 * that the fifty-move rule turns into a draw, 0 for a draw. */
static Wdl wdl_of_score(int32_t score)
{
    const int32_t decisive = TB_VALUE_MATE - TB_MAX_MATE_PLY - 1;
    if (score == 0)
        return WDL_DRAW;
    if (score > 0)
        return score >= decisive ? WDL_WIN : WDL_CURSED_WIN;
    return score <= -decisive ? WDL_LOSS : WDL_BLESSED_LOSS;
}

static Wdl best_move_wdl(const SyzygyRoot *root)
{
    Wdl best = WDL_LOSS;
    for (int i = 0; i < root->move_count; i++)
        best = root->move_wdl[i] > best ? root->move_wdl[i] : best;
    return best;
}

bool syzygy_rank_root(const Board *b, bool fifty_move_rule, SyzygyRoot *out)
{
    memset(out, 0, sizeof *out);
    if (!syzygy_covers(b))
        return false;
    static struct TbRootMoves ranked; /* large; used under the lock only */
    FathomPosition p = fathom_position(b);
    unsigned rule50 = board_state(b)->rule50;
    pthread_mutex_lock(&root_lock);
    /* Fathom ranks all safe wins alike unless told the position has
     * repeated; then it ranks them by DTZ. Always so: left free among safe
     * wins, the search shuffled KBNvK into threefold repetitions against
     * Stockfish. DTZ-optimal moves convert every win. */
    bool repeated = true;
    int ok = tb_probe_root_dtz(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns, rule50, 0,
                               p.ep, p.white_to_move, repeated, fifty_move_rule, &ranked);
    if (!ok)
        ok = tb_probe_root_wdl(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns, rule50, 0,
                               p.ep, p.white_to_move, fifty_move_rule, &ranked);
    unsigned result = ok ? tb_probe_root(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns,
                                         rule50, 0, p.ep, p.white_to_move, NULL)
                         : TB_RESULT_FAILED;
    MoveList legal;
    generate_legal(b, &legal);
    int best_rank = -(1 << 30);
    for (unsigned i = 0; ok && i < ranked.size; i++)
        if (ranked.moves[i].tbRank > best_rank)
            best_rank = ranked.moves[i].tbRank;
    for (unsigned i = 0; ok && i < ranked.size; i++) {
        Move m = legal_move(&legal, ranked.moves[i].move);
        if (m == MOVE_NONE)
            continue;
        out->moves[out->move_count] = m;
        out->move_wdl[out->move_count++] = wdl_of_score(ranked.moves[i].tbScore);
        if (ranked.moves[i].tbRank == best_rank)
            out->keep[out->keep_count++] = m;
    }
    pthread_mutex_unlock(&root_lock);
    if (!ok || out->keep_count == 0)
        return false;
    /* tb_probe_root always counts the fifty moves; without the rule the
     * position's result is its best move's (a cursed win there is a win). */
    bool table_result = result != TB_RESULT_FAILED && result != TB_RESULT_CHECKMATE && result != TB_RESULT_STALEMATE;
    out->wdl = table_result && fifty_move_rule ? wdl_of(TB_GET_WDL(result)) : best_move_wdl(out);
    if (table_result)
        out->dtz = (int)TB_GET_DTZ(result);
    if (out->wdl < 0)
        out->dtz = -out->dtz;
    return true;
}
