#pragma once
/*
 * engine_options.h — the options the engine owns (hash, threads, lines,
 * strength, clock reserve, the search switches and the book): their
 * callbacks drive the engine (engine.h, engine_book.h) and fill
 * engine_settings (engine_settings.h).
 */

/* Registers the engine's options in the option table (once). Call it after
 * engine_init(): registering announces each default, which the engine
 * applies at once. */
void engine_register_options(void);
