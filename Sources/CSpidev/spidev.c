#include "CSpidev.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/spi/spidev.h>

unsigned fpmod_spi_max_segments(void) {
    return ((1u << _IOC_SIZEBITS) - 1) / sizeof(struct spi_ioc_transfer);
}

int fpmod_spi_transfer(int fd, const struct fpmod_spi_segment *segments, unsigned count) {
    if (count == 0 || count > fpmod_spi_max_segments()) {
        errno = EINVAL;
        return -1;
    }
    struct spi_ioc_transfer *transfers = calloc(count, sizeof *transfers);
    if (transfers == NULL) return -1;
    for (unsigned i = 0; i < count; i++) {
        transfers[i].tx_buf = (uint64_t)(uintptr_t)segments[i].tx;
        transfers[i].rx_buf = (uint64_t)(uintptr_t)segments[i].rx;
        transfers[i].len = segments[i].length;
        transfers[i].speed_hz = segments[i].speed_hz;
        transfers[i].delay_usecs = segments[i].delay_usecs;
        transfers[i].cs_change = segments[i].cs_change;
        transfers[i].bits_per_word = 0;
    }
    // SPI_IOC_MESSAGE(count) spelled out: the macro's char[N] needs a constant N.
    unsigned long request = _IOC(_IOC_WRITE, SPI_IOC_MAGIC, 0, count * sizeof *transfers);
    int result = ioctl(fd, request, transfers);
    int saved = errno;
    free(transfers);
    errno = saved;
    return result;
}

int fpmod_spi_set_mode(int fd, uint32_t mode) {
    if (ioctl(fd, SPI_IOC_WR_MODE32, &mode) == 0) return 0;
    if (errno != ENOTTY || mode > 0xff) return -1;
    uint8_t narrow = (uint8_t)mode;
    return ioctl(fd, SPI_IOC_WR_MODE, &narrow);
}

int fpmod_spi_get_mode(int fd, uint32_t *mode) {
    if (ioctl(fd, SPI_IOC_RD_MODE32, mode) == 0) return 0;
    if (errno != ENOTTY) return -1;
    uint8_t narrow = 0;
    if (ioctl(fd, SPI_IOC_RD_MODE, &narrow) != 0) return -1;
    *mode = narrow;
    return 0;
}

int fpmod_spi_set_max_speed(int fd, uint32_t hz) { return ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &hz); }
int fpmod_spi_get_max_speed(int fd, uint32_t *hz) { return ioctl(fd, SPI_IOC_RD_MAX_SPEED_HZ, hz); }
int fpmod_spi_set_bits_per_word(int fd, uint8_t bits) { return ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits); }
int fpmod_spi_get_bits_per_word(int fd, uint8_t *bits) { return ioctl(fd, SPI_IOC_RD_BITS_PER_WORD, bits); }
