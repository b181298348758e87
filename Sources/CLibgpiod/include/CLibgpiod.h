#ifndef FPMOD_CLIBGPIOD_H
#define FPMOD_CLIBGPIOD_H
// libgpiod behind one small, version-neutral C interface.
//
// Debian 12 / Raspberry Pi OS bookworm ship libgpiod 1.6 (libgpiod.so.2, the v1 API);
// Debian 13 / Pi OS trixie ship libgpiod 2.x (libgpiod.so.3, the v2 API). The two APIs share
// almost no symbols and both install <gpiod.h>, so Swift cannot tell them apart with `#if`.
// A C compiler can: v1's header defines GPIOD_LINE_BULK_MAX_LINES and v2's does not. So
// gpiod_v1.c and gpiod_v2.c are both compiled, each guarded by that test, and exactly one of
// them implements the functions below against the header this build found (through
// pkg-config, so a cross-compile's sysroot decides, not the build machine).
//
// Every function returns what its comment says, with errno set by libgpiod (or by the
// kernel through it) on failure. Each names the libgpiod call(s) it makes per API.
#include <stddef.h>
#include <stdint.h>

/// A chip opened with gpiod_chip_open (both APIs).
typedef struct fpmod_gpiod_chip fpmod_gpiod_chip;
/// One requested line: a `struct gpiod_line *` (v1) or a one-line `gpiod_line_request` (v2).
typedef struct fpmod_gpiod_line fpmod_gpiod_line;

/// 1 or 2: the libgpiod API major this build was compiled against.
int fpmod_gpiod_api_major(void);
/// The running library's version: gpiod_version_string() (v1) or gpiod_api_version() (v2).
const char *fpmod_gpiod_library_version(void);

/// gpiod_chip_open(path); NULL with errno on failure.
fpmod_gpiod_chip *fpmod_gpiod_chip_open(const char *path);
/// gpiod_chip_close.
void fpmod_gpiod_chip_close(fpmod_gpiod_chip *chip);

struct fpmod_gpiod_chip_info {
    char name[64];   ///< kernel name, e.g. gpiochip0
    char label[64];  ///< driver label, e.g. pinctrl-rp1
    unsigned int num_lines;
};
/// v1: gpiod_chip_name/_label/_num_lines. v2: gpiod_chip_get_info + gpiod_chip_info_get_*.
/// 0, or -1 with errno.
int fpmod_gpiod_chip_get_info(fpmod_gpiod_chip *chip, struct fpmod_gpiod_chip_info *info);

/// The offset of the first line called `name`: v1 gpiod_chip_find_line, v2
/// gpiod_chip_get_line_offset_from_name. -1 with errno ENOENT when no line has that name.
int fpmod_gpiod_chip_line_offset(fpmod_gpiod_chip *chip, const char *name);

/// Who holds line `offset`: v1 gpiod_line_update + gpiod_line_consumer, v2
/// gpiod_chip_get_line_info + gpiod_line_info_get_consumer. Copies the consumer's name into
/// `buffer` and returns 1; returns 0 when the line is free or its holder gave no name; -1 with
/// errno on failure.
int fpmod_gpiod_line_consumer(fpmod_gpiod_chip *chip, unsigned int offset, char *buffer, size_t length);

enum fpmod_gpiod_direction { FPMOD_GPIOD_INPUT = 0, FPMOD_GPIOD_OUTPUT = 1 };
enum fpmod_gpiod_edges {
    FPMOD_GPIOD_EDGES_NONE = 0, FPMOD_GPIOD_EDGES_RISING = 1,
    FPMOD_GPIOD_EDGES_FALLING = 2, FPMOD_GPIOD_EDGES_BOTH = 3
};
enum fpmod_gpiod_bias {
    FPMOD_GPIOD_BIAS_AS_IS = 0, FPMOD_GPIOD_BIAS_DISABLED = 1,
    FPMOD_GPIOD_BIAS_PULL_UP = 2, FPMOD_GPIOD_BIAS_PULL_DOWN = 3
};

/// What one line is requested as (v2 calls this a line's settings).
struct fpmod_gpiod_line_settings {
    int direction;              ///< enum fpmod_gpiod_direction
    int edges;                  ///< enum fpmod_gpiod_edges (inputs)
    int bias;                   ///< enum fpmod_gpiod_bias
    int active_low;             ///< nonzero: values and edges are logical (active = low)
    int output_value;           ///< logical level an output starts at
    unsigned long debounce_us;  ///< 0: none. v2 only (kernel debouncer); v1 fails with ENOTSUP
};

/// Requests one line with `consumer` as its holder's name. Edge timestamps are on
/// CLOCK_MONOTONIC (v2: gpiod_line_settings_set_event_clock; v1: the kernel's default since
/// Linux 5.7). v1: gpiod_chip_get_line + gpiod_line_request(with flags); v2:
/// gpiod_line_settings_new/_set_*, gpiod_line_config_add_line_settings,
/// gpiod_request_config_set_consumer, gpiod_chip_request_lines. NULL with errno on failure.
/// Not thread-safe against other calls on the same chip (v1 caches line objects in the chip).
fpmod_gpiod_line *fpmod_gpiod_line_request(fpmod_gpiod_chip *chip, unsigned int offset,
                                           const char *consumer,
                                           const struct fpmod_gpiod_line_settings *settings);

/// The descriptor that is readable while edge events are pending (v1 gpiod_line_event_get_fd,
/// v2 gpiod_line_request_get_fd); -1 for a line requested without edges.
int fpmod_gpiod_line_fd(fpmod_gpiod_line *line);
/// The logical level, 0 or 1: v1 gpiod_line_get_value, v2 gpiod_line_request_get_value.
/// -1 with errno on failure.
int fpmod_gpiod_line_get_value(fpmod_gpiod_line *line);
/// Drives an output to a logical level: v1 gpiod_line_set_value, v2
/// gpiod_line_request_set_value. 0, or -1 with errno.
int fpmod_gpiod_line_set_value(fpmod_gpiod_line *line, int value);

/// One edge, in logical terms (rising = became active).
struct fpmod_gpiod_edge {
    int rising;
    uint64_t timestamp_ns;  ///< CLOCK_MONOTONIC
};
/// Reads up to `max` pending edges without blocking: v1 gpiod_line_event_wait (zero timeout)
/// + gpiod_line_event_read_multiple; v2 gpiod_line_request_wait_edge_events (zero timeout) +
/// gpiod_line_request_read_edge_events into the line's gpiod_edge_event_buffer. Returns the
/// number read (0 when none is pending), or -1 with errno (EINTR: call again).
int fpmod_gpiod_line_read_edges(fpmod_gpiod_line *line, struct fpmod_gpiod_edge *out, size_t max);

/// Gives the line back: v1 gpiod_line_release, v2 gpiod_line_request_release (and frees the
/// event buffer). `line` is invalid afterwards.
void fpmod_gpiod_line_release(fpmod_gpiod_line *line);

#endif
