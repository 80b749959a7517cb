#pragma once
/*
 * default_net.h — the network built into the binary (nets/default.nnue,
 * embedded at compile time), so that the NNUE evaluation needs no file.
 * Its provenance — data, commands, seeds, losses — is nets/default.nnue.log.
 */
#include <stddef.h>

/* The bytes of the built-in network file, in the format of docs/nnue.md. */
const unsigned char *default_net_bytes(size_t *size);
/* The file it was built from (nets/default.nnue, or `make EVALFILE=…`), by
 * name, and the first 12 hex digits of its SHA-256 (as `sha256sum` prints). */
const char *default_net_name(void);
const char *default_net_sha256(void);
