#include <zlib.h>

/* deflateInit2 is a macro (it passes zlib's version and the stream's size), which Swift cannot
   call: the function behind it, through a wrapper that passes them as the macro does. */
static inline int fpmod_deflate_init2(z_streamp stream, int level, int method, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}
