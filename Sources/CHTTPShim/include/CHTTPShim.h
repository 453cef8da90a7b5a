#ifndef RECENTS_CHTTPSHIM_H
#define RECENTS_CHTTPSHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// Thin wrappers over Linux APIs that Glibc's Swift overlay does not expose
// (epoll, eventfd, accept4) or that are awkward from Swift (sockaddr, iovec).

#define CHTTP_EPOLLIN 0x001u
#define CHTTP_EPOLLOUT 0x004u
#define CHTTP_EPOLLERR 0x008u
#define CHTTP_EPOLLHUP 0x010u
#define CHTTP_EPOLLRDHUP 0x2000u
#define CHTTP_EPOLLEXCLUSIVE (1u << 28)
#define CHTTP_EPOLLET (1u << 31)

/// One epoll event flattened into a C struct Swift can index (epoll_event is packed on x86-64).
typedef struct {
    uint32_t events;
    int32_t fd;
} chttp_event;

int chttp_epoll_create(void);
int chttp_epoll_add(int epfd, int fd, uint32_t events);
int chttp_epoll_del(int epfd, int fd);
/// Waits for events; returns the count written to `out` (<= max), 0 on timeout or EINTR, -1 on error.
int chttp_epoll_wait(int epfd, chttp_event *out, int max, int timeout_ms);

int chttp_eventfd(void);
void chttp_eventfd_signal(int fd);
void chttp_eventfd_drain(int fd);

/// Creates a non-blocking IPv4/IPv6 TCP listener with SO_REUSEADDR; returns fd or -errno.
int chttp_listen(const char *host, int port, int backlog);
/// Local port of a bound socket, or -1.
int chttp_local_port(int fd);
/// accept4 with SOCK_NONBLOCK|SOCK_CLOEXEC; sets TCP_NODELAY. Returns fd, or -errno. Writes the
/// peer's numeric address to `peer` (an IPv4-mapped IPv6 address as plain IPv4; "" if unknown).
int chttp_accept(int listen_fd, char *peer, size_t peer_len);

/// Non-blocking read; returns bytes, 0 on EOF, -errno on error.
ssize_t chttp_read(int fd, void *buf, size_t len);
/// writev of up to two buffers with MSG_NOSIGNAL semantics; returns bytes or -errno.
ssize_t chttp_write2(int fd, const void *a, size_t alen, const void *b, size_t blen);
/// The same with three buffers (a chunk's size line, its bytes and its CRLF in one sendmsg).
ssize_t chttp_write3(int fd, const void *a, size_t alen, const void *b, size_t blen, const void *c, size_t clen);
int chttp_shutdown_write(int fd);
int chttp_close(int fd);

/// Raises RLIMIT_NOFILE soft limit to the hard limit; stores both; returns 0 on success.
int chttp_raise_nofile(uint64_t *soft, uint64_t *hard);
void chttp_ignore_sigpipe(void);

#endif
