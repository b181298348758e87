#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>

/* The event's kernel timestamp in seconds. input_event's time fields are named differently
   where the C library has a 64-bit time_t on a 32-bit ABI (input_event_sec/_usec): these macros
   read the right ones everywhere. */
static inline double fpmod_input_event_seconds(const struct input_event *event) {
    return (double)event->input_event_sec + (double)event->input_event_usec / 1e6;
}
