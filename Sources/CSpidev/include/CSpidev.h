#ifndef FPMOD_CSPIDEV_H
#define FPMOD_CSPIDEV_H
// The Linux spidev ioctls (<linux/spi/spidev.h>), whose request numbers are macros Swift cannot
// import. Every function returns what ioctl(2) returns (-1 with errno set on failure).
#include <stdint.h>

/// One transfer of an SPI message, as Swift fills it in. `tx` NULL shifts out zeroes; `rx` NULL
/// drops what comes back. `cs_change` as in struct spi_ioc_transfer: on a transfer before the
/// last, deselect the chip before the next one; on the last, keep it selected after the message.
struct fpmod_spi_segment {
    const uint8_t *tx;
    uint8_t *rx;
    uint32_t length;
    /// 0: the device's speed.
    uint32_t speed_hz;
    uint16_t delay_usecs;
    uint8_t cs_change;
};

/// The largest `count` one SPI_IOC_MESSAGE can carry (the ioctl size field's limit).
unsigned fpmod_spi_max_segments(void);

/// ioctl(SPI_IOC_MESSAGE(count)). bits_per_word is left 0 in every transfer: "the device's
/// word size" to the kernel, and the only value umockdev's replay accepts. Returns the bytes
/// transferred, or -1 (EINVAL also for count 0 or beyond fpmod_spi_max_segments()).
int fpmod_spi_transfer(int fd, const struct fpmod_spi_segment *segments, unsigned count);

/// SPI_IOC_WR_MODE32; on ENOTTY (kernels and emulators without the 32-bit ioctl) the 8-bit
/// SPI_IOC_WR_MODE when the mode fits in 8 bits.
int fpmod_spi_set_mode(int fd, uint32_t mode);
/// SPI_IOC_RD_MODE32, falling back to SPI_IOC_RD_MODE on ENOTTY.
int fpmod_spi_get_mode(int fd, uint32_t *mode);
int fpmod_spi_set_max_speed(int fd, uint32_t hz);
int fpmod_spi_get_max_speed(int fd, uint32_t *hz);
int fpmod_spi_set_bits_per_word(int fd, uint8_t bits);
int fpmod_spi_get_bits_per_word(int fd, uint8_t *bits);

#endif
