#ifndef RECENTS_CZLIB_SHIM_H
#define RECENTS_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros (they pass ZLIB_VERSION and the struct's size so the
   library can refuse a header/library mismatch); Swift cannot call a function-like macro, so these
   forward to the real entry points with the same checks. */
static inline int recents_deflate_init(z_streamp stream, int level, int window_bits, int mem_level) {
    return deflateInit2_(stream, level, Z_DEFLATED, window_bits, mem_level, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                         (int)sizeof(z_stream));
}

static inline int recents_inflate_init(z_streamp stream, int window_bits) {
    return inflateInit2_(stream, window_bits, ZLIB_VERSION, (int)sizeof(z_stream));
}
#endif
