/* default_net.c — nets/default.nnue inside the binary (see default_net.h).
 * The assembler's .incbin reads the file when this is compiled (incbin.h). The Makefile
 * passes the file (`make EVALFILE=…`, an absolute path), its name and the
 * start of its SHA-256; without them, the path is relative to the directory
 * make runs in, the top of the repository. */
#include "nnue/default_net.h"

#include "incbin.h"

#ifndef BACHESS_NET_FILE
#define BACHESS_NET_FILE "nets/default.nnue"
#endif
#ifndef BACHESS_NET_NAME
#define BACHESS_NET_NAME "default.nnue"
#endif
#ifndef BACHESS_NET_SHA256
#define BACHESS_NET_SHA256 "unknown"
#endif

INCBIN(bachess_default_net, BACHESS_NET_FILE);

const unsigned char *default_net_bytes(size_t *size)
{
    *size = (size_t)(bachess_default_net_end - bachess_default_net_start);
    return bachess_default_net_start;
}

const char *default_net_name(void) { return BACHESS_NET_NAME; }
const char *default_net_sha256(void) { return BACHESS_NET_SHA256; }
