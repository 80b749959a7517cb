#pragma once
/*
 * web.h — `bachess web [--port N] [--bind ADDRESS] [--open]`: the engine
 * behind a page in the browser (web_server.h), until Ctrl-C.
 */
int web_command(int argc, char **argv);
