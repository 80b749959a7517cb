/* search_params.c — the variables behind the search parameters in a tuning
 * build (see search_params.h); nothing in a normal build. */
#include "search_params.h"

#ifdef SEARCH_TUNING
#define SEARCH_PARAM_DEFINE(name, value, min, max, step) int name = (value);
SEARCH_PARAMS(SEARCH_PARAM_DEFINE)
#undef SEARCH_PARAM_DEFINE
#else
/* ISO C wants something in a translation unit. */
typedef int search_params_are_constants;
#endif
