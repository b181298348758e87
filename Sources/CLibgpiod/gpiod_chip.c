// Chip open and close: the same calls in libgpiod 1.x and 2.x.
#include "CLibgpiod.h"
#include "gpiod_internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

fpmod_gpiod_chip *fpmod_gpiod_chip_open(const char *path) {
    struct gpiod_chip *opened = gpiod_chip_open(path);
    if (!opened) return NULL;
    fpmod_gpiod_chip *chip = malloc(sizeof *chip);
    if (!chip) {
        gpiod_chip_close(opened);
        errno = ENOMEM;
        return NULL;
    }
    chip->chip = opened;
    return chip;
}

void fpmod_gpiod_chip_close(fpmod_gpiod_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

void fpmod_gpiod_copy_text(char *destination, size_t size, const char *source) {
    snprintf(destination, size, "%s", source ? source : "");
}
