#pragma once
/*
 * web_server.h — the HTTP side of `bachess web`, on Debian's libmicrohttpd:
 *   GET  /, /assets/...   the page (web_assets.h); any other path: 404
 *   GET  /events          the engine's lines as Server-Sent Events
 *   POST /command         one UCI line from the page (web_session.h)
 *   POST /pgn             a game's PGN from the engine's own writer
 *   POST /review          the same game annotated by `bachess annotate`, in a
 *                         child process (web_review.h); one at a time
 * Requests must name this server in Host (127.0.0.1, localhost or the
 * bound address, or with 0.0.0.0 any IPv4 address of this machine, with the
 * port: no DNS name but localhost), and an Origin, where a browser sends one,
 * must be this server: another site's page cannot drive the engine, nor a
 * DNS name rebound to this machine. POST bodies are limited in size and
 * commands in rate, for each client address (not the page's session id,
 * which the page chooses) and in all; connections are limited in number,
 * for each client address and in all, and closed when idle.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    WEB_DEFAULT_PORT = 8088,
    WEB_MAX_CONNECTIONS = 256,
    /* For each client address: a page holds its event stream and up to three requests in flight (a
     * command, a PGN export, a review that lasts seconds), 4; eight such tabs, 32. A browser
     * opens at most 6 connections to one server over HTTP/1.1, however many tabs, so that 32 is
     * room for several browsers of one machine (on the loopback server all come from 127.0.0.1),
     * and eight addresses at their limit fill the 256. More are closed at once, unanswered. */
    WEB_CONNECTIONS_PER_ADDRESS = 32,
    WEB_IDLE_SECONDS = 30,
    WEB_BODY_MAX = 4096,
    WEB_COMMANDS_PER_SECOND = 100,      /* for each client address, whatever session ids it sends */
    WEB_COMMANDS_PER_SECOND_ALL = 1000, /* for all addresses together */
    WEB_RATE_CLIENTS = 64,              /* addresses counted in one second; more are refused */
};

/* Starts serving on `address` (IPv4 text, e.g. "127.0.0.1") and `port`.
 * False, with the reason in `error`, when it cannot. */
bool web_server_start(const char *address, uint16_t port, char *error, size_t error_size);
void web_server_stop(void);
