/* The floor for a per-command round trip: one write of the command frame and blocking reads
 * of exactly the reply, nothing else (no flush, no checksum, no retry). tools/bench-peers.sh
 * runs it against the same `fpmod sim` as fpmod and the Python peers.
 *
 * usage: floor DEVICE BAUD COUNT
 * Runs COUNT rounds of ReadSysPara, TempleteNum and GenImg (interleaved) and prints one line
 * per command: NAME p50_us p95_us p99_us max_us, after a line "CPU us_per_round_trip"
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const unsigned char read_sys_para[] = {0xEF, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x03, 0x0F, 0x00, 0x13};
static const unsigned char templete_num[] = {0xEF, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x03, 0x1D, 0x00, 0x21};
static const unsigned char gen_img[] = {0xEF, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x03, 0x01, 0x00, 0x05};

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Blocking reads until `want` bytes are in. */
static int read_exactly(int fd, unsigned char *buffer, size_t want) {
    size_t have = 0;
    while (have < want) {
        ssize_t n = read(fd, buffer + have, want - have);
        if (n <= 0) return -1;
        have += (size_t)n;
    }
    return 0;
}

/* One round trip: the 9-byte header tells how many bytes follow. */
static int round_trip(int fd, const unsigned char *frame, size_t size) {
    unsigned char reply[300];
    if (write(fd, frame, size) != (ssize_t)size) return -1;
    if (read_exactly(fd, reply, 9) != 0) return -1;
    size_t rest = ((size_t)reply[7] << 8) | reply[8];
    if (rest > sizeof reply - 9) return -1;
    return read_exactly(fd, reply + 9, rest);
}

/* User + system CPU time of this process so far, in µs. */
static long long cpu_us(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000LL + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static long long rank(const long long *sorted, int count, double fraction) {
    int position = (int)(fraction * count + 0.999999);
    if (position < 1) position = 1;
    if (position > count) position = count;
    return sorted[position - 1];
}

static speed_t speed_for(long baud) {
    switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    default: return B57600;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: floor DEVICE BAUD COUNT\n");
        return 64;
    }
    int count = atoi(argv[3]);
    int fd = open(argv[1], O_RDWR | O_NOCTTY);
    if (fd < 0 || count < 1) {
        perror("floor: open");
        return 69;
    }
    struct termios t;
    tcgetattr(fd, &t);
    cfmakeraw(&t);
    cfsetspeed(&t, speed_for(atol(argv[2])));
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    tcsetattr(fd, TCSANOW, &t);
    tcflush(fd, TCIFLUSH);

    const char *names[] = {"ReadSysPara", "TempleteNum", "GenImg"};
    const unsigned char *frames[] = {read_sys_para, templete_num, gen_img};
    long long *samples[3];
    for (int c = 0; c < 3; c++) samples[c] = calloc((size_t)count, sizeof(long long));
    long long cpu_start = cpu_us();
    for (int i = 0; i < count; i++) {
        for (int c = 0; c < 3; c++) {
            long long start = now_ns();
            if (round_trip(fd, frames[c], 12) != 0) {
                fprintf(stderr, "floor: %s failed\n", names[c]);
                return 74;
            }
            samples[c][i] = now_ns() - start;
        }
    }
    /* CPU per round trip: the host's own cost, which wake-up latency does not blur. */
    printf("CPU %.2f\n", (double)(cpu_us() - cpu_start) / (3.0 * count));
    for (int c = 0; c < 3; c++) {
        qsort(samples[c], (size_t)count, sizeof(long long), compare);
        printf("%s %lld %lld %lld %lld\n", names[c], rank(samples[c], count, 0.50) / 1000,
               rank(samples[c], count, 0.95) / 1000, rank(samples[c], count, 0.99) / 1000, samples[c][count - 1] / 1000);
    }
    close(fd);
    return 0;
}
