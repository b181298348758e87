// The libgpiod 2.x (v2 API) side of CLibgpiod.h: Debian 13, Raspberry Pi OS trixie.
#include <gpiod.h>
#ifndef GPIOD_LINE_BULK_MAX_LINES  // v1's header defines it; v2's does not

#include "CLibgpiod.h"
#include "gpiod_internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fpmod_gpiod_line {
    struct gpiod_line_request *request;     // one line per request
    struct gpiod_edge_event_buffer *events; // NULL for a line without edge detection
    unsigned int offset;
};

enum { EVENT_BUFFER_CAPACITY = 16 };

int fpmod_gpiod_api_major(void) { return 2; }

const char *fpmod_gpiod_library_version(void) { return gpiod_api_version(); }

int fpmod_gpiod_chip_get_info(fpmod_gpiod_chip *chip, struct fpmod_gpiod_chip_info *info) {
    struct gpiod_chip_info *chip_info = gpiod_chip_get_info(chip->chip);
    if (!chip_info) return -1;
    fpmod_gpiod_copy_text(info->name, sizeof info->name, gpiod_chip_info_get_name(chip_info));
    fpmod_gpiod_copy_text(info->label, sizeof info->label, gpiod_chip_info_get_label(chip_info));
    info->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(chip_info);
    gpiod_chip_info_free(chip_info);
    return 0;
}

int fpmod_gpiod_chip_line_offset(fpmod_gpiod_chip *chip, const char *name) {
    return gpiod_chip_get_line_offset_from_name(chip->chip, name);
}

int fpmod_gpiod_line_consumer(fpmod_gpiod_chip *chip, unsigned int offset, char *buffer, size_t length) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return -1;
    const char *consumer = gpiod_line_info_get_consumer(info);
    int named = gpiod_line_info_is_used(info) && consumer && *consumer;
    if (named) fpmod_gpiod_copy_text(buffer, length, consumer);
    gpiod_line_info_free(info);
    return named;
}

static enum gpiod_line_edge edge_detection(int edges) {
    switch (edges) {
    case FPMOD_GPIOD_EDGES_RISING: return GPIOD_LINE_EDGE_RISING;
    case FPMOD_GPIOD_EDGES_FALLING: return GPIOD_LINE_EDGE_FALLING;
    case FPMOD_GPIOD_EDGES_BOTH: return GPIOD_LINE_EDGE_BOTH;
    default: return GPIOD_LINE_EDGE_NONE;
    }
}

static enum gpiod_line_bias line_bias(int bias) {
    switch (bias) {
    case FPMOD_GPIOD_BIAS_DISABLED: return GPIOD_LINE_BIAS_DISABLED;
    case FPMOD_GPIOD_BIAS_PULL_UP: return GPIOD_LINE_BIAS_PULL_UP;
    case FPMOD_GPIOD_BIAS_PULL_DOWN: return GPIOD_LINE_BIAS_PULL_DOWN;
    default: return GPIOD_LINE_BIAS_AS_IS;
    }
}

/// gpiod_line_settings_new and its setters; NULL with errno.
static struct gpiod_line_settings *make_settings(const struct fpmod_gpiod_line_settings *wanted) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) return NULL;
    int failed = 0;
    if (wanted->direction == FPMOD_GPIOD_OUTPUT) {
        failed |= gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        failed |= gpiod_line_settings_set_output_value(
            settings, wanted->output_value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    } else {
        failed |= gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        failed |= gpiod_line_settings_set_edge_detection(settings, edge_detection(wanted->edges));
        // The door lock compares edge times with its own CLOCK_MONOTONIC readings.
        failed |= gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        gpiod_line_settings_set_debounce_period_us(settings, wanted->debounce_us);
    }
    failed |= gpiod_line_settings_set_bias(settings, line_bias(wanted->bias));
    gpiod_line_settings_set_active_low(settings, wanted->active_low != 0);
    if (failed) {
        int saved = errno;
        gpiod_line_settings_free(settings);
        errno = saved ? saved : EINVAL;
        return NULL;
    }
    return settings;
}

fpmod_gpiod_line *fpmod_gpiod_line_request(fpmod_gpiod_chip *chip, unsigned int offset,
                                           const char *consumer,
                                           const struct fpmod_gpiod_line_settings *wanted) {
    struct gpiod_line_settings *settings = NULL;
    struct gpiod_line_config *line_config = NULL;
    struct gpiod_request_config *request_config = NULL;
    struct gpiod_line_request *request = NULL;
    fpmod_gpiod_line *line = NULL;
    int saved = 0;

    if (!(settings = make_settings(wanted))) goto failed;
    if (!(line_config = gpiod_line_config_new())) goto failed;
    if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) != 0) goto failed;
    if (!(request_config = gpiod_request_config_new())) goto failed;
    gpiod_request_config_set_consumer(request_config, consumer);
    if (!(request = gpiod_chip_request_lines(chip->chip, request_config, line_config))) goto failed;
    if (!(line = calloc(1, sizeof *line))) {
        errno = ENOMEM;
        goto failed;
    }
    line->request = request;
    line->offset = offset;
    if (wanted->direction == FPMOD_GPIOD_INPUT && wanted->edges != FPMOD_GPIOD_EDGES_NONE) {
        if (!(line->events = gpiod_edge_event_buffer_new(EVENT_BUFFER_CAPACITY))) goto failed;
    }
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    gpiod_line_settings_free(settings);
    return line;

failed:
    saved = errno;
    free(line);
    if (request) gpiod_line_request_release(request);
    if (request_config) gpiod_request_config_free(request_config);
    if (line_config) gpiod_line_config_free(line_config);
    if (settings) gpiod_line_settings_free(settings);
    errno = saved;
    return NULL;
}

int fpmod_gpiod_line_fd(fpmod_gpiod_line *line) {
    return line->events ? gpiod_line_request_get_fd(line->request) : -1;
}

int fpmod_gpiod_line_get_value(fpmod_gpiod_line *line) {
    enum gpiod_line_value value = gpiod_line_request_get_value(line->request, line->offset);
    if (value == GPIOD_LINE_VALUE_ERROR) return -1;
    return value == GPIOD_LINE_VALUE_ACTIVE;
}

int fpmod_gpiod_line_set_value(fpmod_gpiod_line *line, int value) {
    return gpiod_line_request_set_value(line->request, line->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

int fpmod_gpiod_line_read_edges(fpmod_gpiod_line *line, struct fpmod_gpiod_edge *out, size_t max) {
    if (!line->events || max == 0) return 0;
    int pending = gpiod_line_request_wait_edge_events(line->request, 0);
    if (pending <= 0) return pending;
    size_t wanted = max < EVENT_BUFFER_CAPACITY ? max : EVENT_BUFFER_CAPACITY;
    int count = gpiod_line_request_read_edge_events(line->request, line->events, wanted);
    if (count < 0) return -1;
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(line->events, (unsigned long)i);
        out[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
        out[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    }
    return count;
}

void fpmod_gpiod_line_release(fpmod_gpiod_line *line) {
    if (!line) return;
    if (line->events) gpiod_edge_event_buffer_free(line->events);
    gpiod_line_request_release(line->request);
    free(line);
}

#endif
