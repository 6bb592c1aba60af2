#ifndef CXXHASH_SHIM_H
#define CXXHASH_SHIM_H
// Debian's libxxhash-dev, compiled into the caller (header-only): no library to link or ship.
#define XXH_INLINE_ALL
#include <xxhash.h>
#endif
