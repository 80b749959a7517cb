/* web_server.c — HTTP routes, checks and limits of `bachess web` (see web_server.h). */
#include "web/web_server.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timer.h"
#include "web/web_assets.h"
#include "web/web_events.h"
#include "web/web_log.h"
#include "web/web_review.h"
#include "web/web_session.h"

static struct MHD_Daemon *daemon_handle;
static char bound_address[INET_ADDRSTRLEN]; /* as given to --bind, e.g. "127.0.0.1" */
static char bound_port_text[8];

/* What a POST has sent so far, kept between the handler's calls. */
typedef struct {
    char body[WEB_BODY_MAX + 1];
    size_t length;
    bool too_long;
} Upload;

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type, const void *data,
                             size_t size, enum MHD_ResponseMemoryMode mode)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(size, (void *)data, mode);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
    enum MHD_Result result = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return result;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *text)
{
    return reply(c, status, "text/plain; charset=utf-8", text, strlen(text), MHD_RESPMEM_MUST_COPY);
}

/* Whether `name` (an IPv4 address in text) is one of this machine's
 * interfaces' addresses, as they are now. */
static bool interface_address(const char *name)
{
    struct in_addr a;
    struct ifaddrs *list;
    if (inet_pton(AF_INET, name, &a) != 1 || getifaddrs(&list) != 0)
        return false;
    bool found = false;
    for (struct ifaddrs *i = list; i && !found; i = i->ifa_next)
        found = i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
                ((const struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr == a.s_addr;
    freeifaddrs(list);
    return found;
}

/* Whether a Host header names this server: "127.0.0.1", "localhost" or the
 * bound address, and when bound to 0.0.0.0 any IPv4 address of this
 * machine's interfaces, each with the port (which a browser leaves out for
 * port 80). No other name: a DNS name, even one that resolves here, may be
 * an attacker's rebound to this machine, while an address cannot be. */
static bool names_this_server(const char *host)
{
    char name[64];
    const char *colon = strrchr(host, ':');
    size_t length = colon ? (size_t)(colon - host) : strlen(host);
    if (length == 0 || length >= sizeof name)
        return false;
    if (colon ? strcmp(colon + 1, bound_port_text) != 0 : strcmp(bound_port_text, "80") != 0)
        return false;
    memcpy(name, host, length);
    name[length] = '\0';
    if (strcmp(name, "127.0.0.1") == 0 || strcmp(name, "localhost") == 0 || strcmp(name, bound_address) == 0)
        return true;
    return strcmp(bound_address, "0.0.0.0") == 0 && interface_address(name);
}

/* Host names this server; Origin, if sent, is this server too. */
static bool trusted(struct MHD_Connection *c)
{
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (!host || !names_this_server(host))
        return false;
    return !origin || (strncmp(origin, "http://", 7) == 0 && strcmp(origin + 7, host) == 0);
}

/* Budgets of commands a second, kept by the client's address (its IPv4
 * address: the server listens on IPv4 only): each address at most
 * WEB_COMMANDS_PER_SECOND, and all together WEB_COMMANDS_PER_SECOND_ALL, so
 * that many clients together cannot keep the engine from its search. A
 * command refused for its address's budget does not spend the shared one.
 *
 * Not by the session id a page sends: the page chooses it, and a page that
 * changed it would be a new client each time (ten ids of a full budget each
 * drained the shared one; a new id a command took every place of the table).
 * An address is one place and at most a tenth of the shared budget, however
 * many ids it sends: an address's commands, within its own budget, are
 * refused only when ten other addresses flood in the same second, or
 * WEB_RATE_CLIENTS others send in it. No budget for each session within an
 * address: an honest page sends a few commands a second, so it would only
 * shield a page from a flooding page beside it, which new ids get round.
 *
 * The limit: an address is one client. The pages of one machine (all from
 * 127.0.0.1 on the default loopback server) or behind one proxy share one
 * budget, and a program on this machine can connect from any 127.x.y.z. */
typedef struct {
    in_addr_t address;
    int64_t second;
    int used;
} RateBucket;

static bool within_rate(in_addr_t address)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static RateBucket clients[WEB_RATE_CLIENTS];
    static int64_t second;
    static int used;
    pthread_mutex_lock(&lock);
    int64_t now = time_now_ms() / 1000;
    if (now != second)
        second = now, used = 0;
    RateBucket *bucket = NULL, *stale = NULL;
    for (int i = 0; i < WEB_RATE_CLIENTS && !bucket; i++) {
        if (clients[i].second != now)
            stale = stale ? stale : &clients[i];
        else if (clients[i].address == address)
            bucket = &clients[i];
    }
    if (!bucket && stale) { /* an address new in this second */
        bucket = stale;
        *bucket = (RateBucket){ .address = address, .second = now };
    }
    /* No bucket: as many addresses as there are buckets this second already. */
    bool ok = bucket && bucket->used < WEB_COMMANDS_PER_SECOND && used < WEB_COMMANDS_PER_SECOND_ALL;
    if (ok)
        bucket->used++, used++;
    pthread_mutex_unlock(&lock);
    return ok;
}

/* The client of a request: its IPv4 address (0.0.0.0, never a peer's, should
 * the server not know it). */
static in_addr_t client_address(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr || info->client_addr->sa_family != AF_INET)
        return INADDR_ANY;
    return ((const struct sockaddr_in *)info->client_addr)->sin_addr.s_addr;
}

/* The event stream: one engine line an event, a comment every few seconds
 * so that proxies and the idle timeout see life. */
static ssize_t read_events(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    uint64_t *next = cls;
    char line[WEB_EVENT_LINE_MAX];
    if (max < sizeof line + 16)
        return 0;
    if (web_events_wait(next, line, sizeof line, 5000))
        return snprintf(buf, max, "data: %s\n\n", line);
    return web_events_closed() ? MHD_CONTENT_READER_END_OF_STREAM : snprintf(buf, max, ": alive\n\n");
}

static enum MHD_Result serve_events(struct MHD_Connection *c)
{
    uint64_t *next = malloc(sizeof *next);
    if (!next)
        return MHD_NO;
    *next = web_events_next();
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 2 * WEB_EVENT_LINE_MAX,
                                                               read_events, next, free);
    if (!r) {
        free(next);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result result = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return result;
}

/* A game annotated by a child process (web_review.h); this connection's
 * thread waits for it, the others go on. Takes `pgn`. */
static enum MHD_Result serve_review(struct MHD_Connection *c, char *pgn, const WebGameFacts *facts)
{
    char error[256], message[300];
    char *annotated;
    ReviewOutcome outcome = web_review_run(pgn, facts->plies, &annotated, error, sizeof error);
    free(pgn);
    if (outcome == REVIEW_BUSY)
        return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "error: a review is under way\n");
    if (outcome == REVIEW_FAILED) {
        snprintf(message, sizeof message, "error: %s\n", error);
        return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, message);
    }
    return reply(c, MHD_HTTP_OK, "application/x-chess-pgn", annotated, strlen(annotated), MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result serve_post(struct MHD_Connection *c, const char *url, Upload *u)
{
    if (u->too_long)
        return reply_text(c, 413 /* content too large */, "error: the message is too long\n");
    if (!within_rate(client_address(c)))
        return reply_text(c, MHD_HTTP_TOO_MANY_REQUESTS, "error: too many messages\n");
    char error[256];
    u->body[u->length] = '\0';
    if (strcmp(url, "/command") == 0) {
        u->body[strcspn(u->body, "\r\n")] = '\0';
        if (!web_session_command(u->body, error, sizeof error))
            return reply_text(c, MHD_HTTP_BAD_REQUEST, error);
        return reply_text(c, MHD_HTTP_OK, "ok\n");
    }
    WebGameFacts facts;
    char *pgn = web_session_pgn(u->body, &facts, error, sizeof error);
    if (!pgn)
        return reply_text(c, MHD_HTTP_BAD_REQUEST, error);
    if (strcmp(url, "/review") == 0)
        return serve_review(c, pgn, &facts);
    return reply(c, MHD_HTTP_OK, "application/x-chess-pgn", pgn, strlen(pgn), MHD_RESPMEM_MUST_FREE);
}

/* Collects a POST body across the handler's calls; true while it goes on. */
static bool collecting(const char *data, size_t *size, Upload *u)
{
    if (*size == 0)
        return false;
    if (u->length + *size > WEB_BODY_MAX)
        u->too_long = true;
    else {
        memcpy(u->body + u->length, data, *size);
        u->length += *size;
    }
    *size = 0;
    return true;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **state)
{
    (void)cls, (void)version;
    bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    bool post_route = strcmp(url, "/command") == 0 || strcmp(url, "/pgn") == 0 || strcmp(url, "/review") == 0;
    if (post && post_route) {
        if (!*state) { /* the headers: decide before reading a byte of the body */
            if (!trusted(c))
                return reply_text(c, MHD_HTTP_FORBIDDEN, "error: foreign origin\n");
            *state = calloc(1, sizeof(Upload));
            return *state ? MHD_YES : MHD_NO;
        }
        if (collecting(data, size, *state))
            return MHD_YES;
        return serve_post(c, url, *state);
    }
    if (!trusted(c))
        return reply_text(c, MHD_HTTP_FORBIDDEN, "error: foreign origin\n");
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "error: method not allowed\n");
    if (strcmp(url, "/events") == 0)
        return serve_events(c);
    const WebAsset *a = web_asset(url);
    if (!a)
        return reply_text(c, MHD_HTTP_NOT_FOUND, "error: not found\n");
    return reply(c, MHD_HTTP_OK, a->content_type, a->data, (size_t)(a->end - a->data), MHD_RESPMEM_PERSISTENT);
}

static void request_done(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)c, (void)why;
    free(*state);
    *state = NULL;
}

bool web_server_start(const char *address, uint16_t port, char *error, size_t error_size)
{
    struct sockaddr_in bind_to = { .sin_family = AF_INET, .sin_port = htons(port) };
    if (inet_pton(AF_INET, address, &bind_to.sin_addr) != 1) {
        snprintf(error, error_size, "'%s' is not an IPv4 address", address);
        return false;
    }
    inet_ntop(AF_INET, &bind_to.sin_addr, bound_address, sizeof bound_address);
    snprintf(bound_port_text, sizeof bound_port_text, "%u", port);
    /* libmicrohttpd counts each address's connections as it accepts them, under its own lock, in
     * this threading mode too: one beyond WEB_CONNECTIONS_PER_ADDRESS is closed at once, before it
     * gets a thread or a place (its log says "Server reached connection limit"), and the others are
     * served meanwhile. Beyond WEB_MAX_CONNECTIONS in all it accepts none: they wait in the backlog. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG;
    daemon_handle = MHD_start_daemon(flags, port, NULL, NULL, handle, NULL,                          //
                                     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&bind_to,               //
                                     MHD_OPTION_CONNECTION_LIMIT, (unsigned)WEB_MAX_CONNECTIONS,     //
                                     MHD_OPTION_PER_IP_CONNECTION_LIMIT,                             //
                                     (unsigned)WEB_CONNECTIONS_PER_ADDRESS,                          //
                                     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)WEB_IDLE_SECONDS,      //
                                     MHD_OPTION_THREAD_STACK_SIZE, (size_t)(256 * 1024),             //
                                     MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL,                 //
                                     MHD_OPTION_EXTERNAL_LOGGER, web_log_library, NULL, MHD_OPTION_END);
    if (!daemon_handle) {
        snprintf(error, error_size, "cannot listen on %s:%u (in use, or not an address of this machine)",
                 address, port);
        return false;
    }
    return true;
}

void web_server_stop(void)
{
    struct MHD_Daemon *d = daemon_handle;
    daemon_handle = NULL;
    web_review_cancel(); /* else stopping the daemon would wait for it */
    web_events_close();
    if (d)
        MHD_stop_daemon(d);
}
