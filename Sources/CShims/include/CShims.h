#ifndef FPMOD_CSHIMS_H
#define FPMOD_CSHIMS_H
// Calls that Glibc hides from Swift behind feature macros, wrapped once here.
#include <stddef.h>
#endif
