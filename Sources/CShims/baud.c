// termios2 lives in the kernel's <asm/termbits.h>, whose struct termios clashes with glibc's
// <termios.h>; keep this file free of <termios.h>.
#include "CShims.h"
#include <asm/termbits.h>
#include <sys/ioctl.h>

int fpmod_set_baud(int fd, unsigned int rate) {
    struct termios2 t;
    if (ioctl(fd, TCGETS2, &t) != 0) return -1;
    t.c_cflag &= ~(CBAUD | (CBAUD << IBSHIFT));
    t.c_cflag |= BOTHER | (BOTHER << IBSHIFT);
    t.c_ispeed = rate;
    t.c_ospeed = rate;
    return ioctl(fd, TCSETS2, &t);
}

int fpmod_get_baud(int fd, unsigned int *rate) {
    struct termios2 t;
    if (ioctl(fd, TCGETS2, &t) != 0) return -1;
    *rate = t.c_ospeed;
    return 0;
}
