#ifndef FPMOD_CSHIMS_H
#define FPMOD_CSHIMS_H
// Calls that Glibc hides from Swift behind feature macros (or that need kernel headers which
// clash with <termios.h>), wrapped once here. Every function returns what the C call returns
// (-1 with errno set on failure) unless its comment says otherwise.
#include <stddef.h>
#include <signal.h>

// Pseudo-terminals (posix_openpt & co. sit behind _XOPEN_SOURCE).
int fpmod_posix_openpt(int flags);
int fpmod_grantpt(int fd);
int fpmod_unlockpt(int fd);
/// ptsname_r; returns 0 or an errno value (not -1), like ptsname_r itself.
int fpmod_ptsname_r(int fd, char *buffer, size_t length);

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC, no peer address.
int fpmod_accept(int fd);

// getsockopt(SO_PEERCRED) on a Unix socket: the peer's pid and uid (struct ucred needs
// _GNU_SOURCE). On a client's socket that is the listener's process.
int fpmod_peer_credentials(int fd, int *pid, unsigned int *uid);

// eventfd(2), non-blocking and close-on-exec.
int fpmod_eventfd(unsigned int initial);

// signalfd(2), non-blocking and close-on-exec, and the size of one struct signalfd_siginfo
// record (its first field, ssi_signo, is a uint32_t) so Swift can decode records as bytes.
int fpmod_signalfd(const sigset_t *mask);
size_t fpmod_signalfd_siginfo_size(void);

// Arbitrary baud rates through termios2 (TCGETS2/TCSETS2, BOTHER). <asm/termbits.h> cannot be
// included next to <termios.h>, so this lives in its own translation unit.
/// Sets input and output speed to `rate` bits/s, leaving every other termios flag as it is.
int fpmod_set_baud(int fd, unsigned int rate);
/// Reads the output speed in bits/s as the kernel stores it (works for B-constants and BOTHER
/// alike; on a pseudo-terminal master it reports what the slave's user set).
int fpmod_get_baud(int fd, unsigned int *rate);

/// ppoll(2) with a timeout in nanoseconds (negative: wait forever); hidden behind _GNU_SOURCE.
struct pollfd;
int fpmod_ppoll(struct pollfd *fds, unsigned long count, long long timeout_ns);

#endif
