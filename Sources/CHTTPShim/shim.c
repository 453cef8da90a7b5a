#define _GNU_SOURCE
#include "CHTTPShim.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

int chttp_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int chttp_epoll_add(int epfd, int fd, uint32_t events) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.fd = fd;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

int chttp_epoll_del(int epfd, int fd) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev);
}

int chttp_epoll_wait(int epfd, chttp_event *out, int max, int timeout_ms) {
    struct epoll_event evs[512];
    if (max > 512) max = 512;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    if (n < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < n; i++) {
        out[i].events = evs[i].events;
        out[i].fd = evs[i].data.fd;
    }
    return n;
}

int chttp_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void chttp_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t r = write(fd, &one, sizeof one);
    (void)r;
}

void chttp_eventfd_drain(int fd) {
    uint64_t v;
    ssize_t r = read(fd, &v, sizeof v);
    (void)r;
}

int chttp_listen(const char *host, int port, int backlog) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char portstr[16];
    snprintf(portstr, sizeof portstr, "%d", port);
    int rc = getaddrinfo(host && *host ? host : NULL, portstr, &hints, &res);
    if (rc != 0 || !res) return -EADDRNOTAVAIL;
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        int e = errno;
        freeaddrinfo(res);
        return -e;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
        int e = errno;
        close(fd);
        freeaddrinfo(res);
        return -e;
    }
    freeaddrinfo(res);
    return fd;
}

int chttp_local_port(int fd) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) return -1;
    if (ss.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return -1;
}

int chttp_accept(int listen_fd, char *peer, size_t peer_len) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    int fd = accept4(listen_fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return -errno;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (peer_len > 0) {
        peer[0] = 0;
        if (ss.ss_family == AF_INET) {
            inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, peer, (socklen_t)peer_len);
        } else if (ss.ss_family == AF_INET6) {
            struct in6_addr *a = &((struct sockaddr_in6 *)&ss)->sin6_addr;
            // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d; name them as IPv4 does.
            if (IN6_IS_ADDR_V4MAPPED(a)) {
                inet_ntop(AF_INET, &a->s6_addr[12], peer, (socklen_t)peer_len);
            } else {
                inet_ntop(AF_INET6, a, peer, (socklen_t)peer_len);
            }
        }
    }
    return fd;
}

ssize_t chttp_read(int fd, void *buf, size_t len) {
    for (;;) {
        ssize_t n = recv(fd, buf, len, 0);
        if (n >= 0) return n;
        if (errno == EINTR) continue;
        return -errno;
    }
}

ssize_t chttp_write3(int fd, const void *a, size_t alen, const void *b, size_t blen, const void *c, size_t clen) {
    struct iovec iov[3];
    int cnt = 0;
    const void *bases[3] = {a, b, c};
    size_t lens[3] = {alen, blen, clen};
    for (int i = 0; i < 3; i++) {
        if (lens[i] == 0) continue;
        iov[cnt].iov_base = (void *)bases[i];
        iov[cnt].iov_len = lens[i];
        cnt++;
    }
    if (cnt == 0) return 0;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = iov;
    msg.msg_iovlen = cnt;
    for (;;) {
        ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n >= 0) return n;
        if (errno == EINTR) continue;
        return -errno;
    }
}

ssize_t chttp_write2(int fd, const void *a, size_t alen, const void *b, size_t blen) {
    return chttp_write3(fd, a, alen, b, blen, NULL, 0);
}

int chttp_shutdown_write(int fd) { return shutdown(fd, SHUT_WR); }

int chttp_close(int fd) { return close(fd); }

int chttp_raise_nofile(uint64_t *soft, uint64_t *hard) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
            getrlimit(RLIMIT_NOFILE, &rl);
        }
    }
    *soft = (uint64_t)rl.rlim_cur;
    *hard = (uint64_t)rl.rlim_max;
    return 0;
}

void chttp_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
