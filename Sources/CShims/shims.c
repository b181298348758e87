#define _GNU_SOURCE
#include "CShims.h"
#include <poll.h>
#include <time.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>

int fpmod_posix_openpt(int flags) { return posix_openpt(flags); }
int fpmod_grantpt(int fd) { return grantpt(fd); }
int fpmod_unlockpt(int fd) { return unlockpt(fd); }
int fpmod_ptsname_r(int fd, char *buffer, size_t length) { return ptsname_r(fd, buffer, length); }

int fpmod_eventfd(unsigned int initial) { return eventfd(initial, EFD_NONBLOCK | EFD_CLOEXEC); }

int fpmod_signalfd(const sigset_t *mask) { return signalfd(-1, mask, SFD_NONBLOCK | SFD_CLOEXEC); }
size_t fpmod_signalfd_siginfo_size(void) { return sizeof(struct signalfd_siginfo); }

int fpmod_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int fpmod_peer_credentials(int fd, int *pid, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    return 0;
}

int fpmod_ppoll(struct pollfd *fds, unsigned long count, long long timeout_ns) {
    if (timeout_ns < 0) return ppoll(fds, (nfds_t)count, NULL, NULL);
    struct timespec timeout = { .tv_sec = timeout_ns / 1000000000LL, .tv_nsec = timeout_ns % 1000000000LL };
    return ppoll(fds, (nfds_t)count, &timeout, NULL);
}
