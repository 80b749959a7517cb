#pragma once
/*
 * web_assets.h — the page of `bachess web`, built into the binary (the
 * files of embed/web/, embedded at compile time), so that it is served
 * the same from any working directory. The served paths are exactly these;
 * every other path is not found.
 */
#include <stddef.h>

typedef struct {
    const char *path;          /* as requested, e.g. "/assets/app.js" */
    const char *content_type;
    const unsigned char *data, *end; /* the bytes are data .. end - 1 */
} WebAsset;

/* The asset served at `path`, or NULL. */
const WebAsset *web_asset(const char *path);
