/* web_absent.c — `bachess web` in a build without the web server (see
 * web.h): the engine-only build (`make engine`) and the Windows and aarch64
 * builds link this file in place of the files of src/web/, which need
 * libmicrohttpd. */
#include "web/web.h"

#include <stdio.h>

int web_command(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "bachess web: this build has no web server (it is the engine-only build; "
                    "a plain `make` on Debian builds it with libmicrohttpd)\n");
    return 2;
}
