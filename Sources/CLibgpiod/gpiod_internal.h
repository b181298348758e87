#ifndef FPMOD_CLIBGPIOD_INTERNAL_H
#define FPMOD_CLIBGPIOD_INTERNAL_H
// What gpiod_chip.c shares with gpiod_v1.c and gpiod_v2.c: both APIs open and close a chip
// with the same two calls, so that part is written once.
#include <gpiod.h>
#include <stddef.h>

struct fpmod_gpiod_chip {
    struct gpiod_chip *chip;
};

/// Copies a C string into a fixed buffer: truncates (kernel names are at most 32 bytes
/// anyway), always terminates, and treats NULL as "".
void fpmod_gpiod_copy_text(char *destination, size_t size, const char *source);

#endif
