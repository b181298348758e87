// The libgpiod 1.x (v1 API) side of CLibgpiod.h: Debian 12, Raspberry Pi OS bookworm.
#include <gpiod.h>
#ifdef GPIOD_LINE_BULK_MAX_LINES  // only v1's header defines it

#include "CLibgpiod.h"
#include "gpiod_internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

struct fpmod_gpiod_line {
    struct gpiod_line *line;  // owned by the chip's line cache; released, never freed
    int fd;
};

int fpmod_gpiod_api_major(void) { return 1; }

const char *fpmod_gpiod_library_version(void) { return gpiod_version_string(); }

int fpmod_gpiod_chip_get_info(fpmod_gpiod_chip *chip, struct fpmod_gpiod_chip_info *info) {
    fpmod_gpiod_copy_text(info->name, sizeof info->name, gpiod_chip_name(chip->chip));
    fpmod_gpiod_copy_text(info->label, sizeof info->label, gpiod_chip_label(chip->chip));
    info->num_lines = gpiod_chip_num_lines(chip->chip);
    return 0;
}

int fpmod_gpiod_chip_line_offset(fpmod_gpiod_chip *chip, const char *name) {
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    if (!line) {
        if (errno == 0) errno = ENOENT;
        return -1;
    }
    return (int)gpiod_line_offset(line);
}

int fpmod_gpiod_line_consumer(fpmod_gpiod_chip *chip, unsigned int offset, char *buffer, size_t length) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return -1;
    // The cached line object holds what the kernel said when it was first fetched.
    if (gpiod_line_update(line) != 0) return -1;
    const char *consumer = gpiod_line_consumer(line);
    if (!gpiod_line_is_used(line) || !consumer || !*consumer) return 0;
    fpmod_gpiod_copy_text(buffer, length, consumer);
    return 1;
}

static int request_type(const struct fpmod_gpiod_line_settings *settings) {
    if (settings->direction == FPMOD_GPIOD_OUTPUT) return GPIOD_LINE_REQUEST_DIRECTION_OUTPUT;
    switch (settings->edges) {
    case FPMOD_GPIOD_EDGES_RISING: return GPIOD_LINE_REQUEST_EVENT_RISING_EDGE;
    case FPMOD_GPIOD_EDGES_FALLING: return GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE;
    case FPMOD_GPIOD_EDGES_BOTH: return GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
    default: return GPIOD_LINE_REQUEST_DIRECTION_INPUT;
    }
}

static int request_flags(const struct fpmod_gpiod_line_settings *settings) {
    int flags = settings->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    switch (settings->bias) {
    case FPMOD_GPIOD_BIAS_DISABLED: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
    case FPMOD_GPIOD_BIAS_PULL_UP: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
    case FPMOD_GPIOD_BIAS_PULL_DOWN: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
    default: break;
    }
    return flags;
}

fpmod_gpiod_line *fpmod_gpiod_line_request(fpmod_gpiod_chip *chip, unsigned int offset,
                                           const char *consumer,
                                           const struct fpmod_gpiod_line_settings *settings) {
    // libgpiod 1 speaks the kernel's uAPI v1, which has no debouncer.
    if (settings->debounce_us != 0) {
        errno = ENOTSUP;
        return NULL;
    }
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return NULL;
    struct gpiod_line_request_config config = {
        .consumer = consumer,
        .request_type = request_type(settings),
        .flags = request_flags(settings),
    };
    if (gpiod_line_request(line, &config, settings->output_value ? 1 : 0) != 0) return NULL;
    fpmod_gpiod_line *requested = malloc(sizeof *requested);
    if (!requested) {
        gpiod_line_release(line);
        errno = ENOMEM;
        return NULL;
    }
    requested->line = line;
    int events = settings->direction == FPMOD_GPIOD_INPUT && settings->edges != FPMOD_GPIOD_EDGES_NONE;
    requested->fd = events ? gpiod_line_event_get_fd(line) : -1;
    return requested;
}

int fpmod_gpiod_line_fd(fpmod_gpiod_line *line) { return line->fd; }

int fpmod_gpiod_line_get_value(fpmod_gpiod_line *line) { return gpiod_line_get_value(line->line); }

int fpmod_gpiod_line_set_value(fpmod_gpiod_line *line, int value) {
    return gpiod_line_set_value(line->line, value ? 1 : 0);
}

int fpmod_gpiod_line_read_edges(fpmod_gpiod_line *line, struct fpmod_gpiod_edge *out, size_t max) {
    if (line->fd < 0 || max == 0) return 0;
    const struct timespec now = {0, 0};
    int pending = gpiod_line_event_wait(line->line, &now);
    if (pending <= 0) return pending;
    struct gpiod_line_event events[16];
    unsigned int wanted = max < 16 ? (unsigned int)max : 16;
    int count = gpiod_line_event_read_multiple(line->line, events, wanted);
    if (count < 0) return -1;
    for (int i = 0; i < count; i++) {
        out[i].rising = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
        out[i].timestamp_ns = (uint64_t)events[i].ts.tv_sec * 1000000000u + (uint64_t)events[i].ts.tv_nsec;
    }
    return count;
}

void fpmod_gpiod_line_release(fpmod_gpiod_line *line) {
    if (!line) return;
    gpiod_line_release(line->line);
    free(line);
}

#endif
