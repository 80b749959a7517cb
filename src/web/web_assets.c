/* web_assets.c — embed/web/ inside the binary (see web_assets.h).
 * The assembler's .incbin reads each file when this is compiled (incbin.h); paths are
 * relative to the top of the repository, where make runs. */
#include "web/web_assets.h"

#include <string.h>

#include "incbin.h"

#define EMBED(name, file) INCBIN(bachess_web_##name, "embed/web/" file);

EMBED(index, "index.html")
EMBED(app_js, "app.js")
EMBED(app_css, "app.css")
EMBED(pieces, "pieces/standard.svg")
EMBED(markers, "extensions/markers/markers.svg")
EMBED(arrows, "extensions/arrows/arrows.svg")

#define ASSET(path, type, name) { path, type, bachess_web_##name##_start, bachess_web_##name##_end }

static const WebAsset assets[] = {
    ASSET("/", "text/html; charset=utf-8", index),
    ASSET("/assets/app.js", "text/javascript; charset=utf-8", app_js),
    ASSET("/assets/app.css", "text/css; charset=utf-8", app_css),
    ASSET("/assets/pieces/standard.svg", "image/svg+xml", pieces),
    ASSET("/assets/extensions/markers/markers.svg", "image/svg+xml", markers),
    ASSET("/assets/extensions/arrows/arrows.svg", "image/svg+xml", arrows),
};

const WebAsset *web_asset(const char *path)
{
    for (size_t i = 0; i < sizeof assets / sizeof *assets; i++)
        if (strcmp(path, assets[i].path) == 0)
            return &assets[i];
    return NULL;
}
