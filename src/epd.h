#pragma once
/*
 * epd.h — the `epd` sub-command: runs a test suite of EPD positions with
 * best-move (`bm`) and avoid-move (`am`) operations at a fixed time per
 * position and reports how many were solved.
 */
int epd_command(int argc, char **argv);
