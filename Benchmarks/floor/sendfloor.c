// sendfloor: what one send per stream costs on this host with no server code around it.
//
// The event-stream goal counts the server's CPU per delivered event. On loopback most of that is
// the kernel's: the sender's TCP transmit and, in the sender's own softirq, the receiver's TCP
// work. This program measures that floor the way Benchmarks/sse.py measures the server: a child
// process holds `streams` loopback connections and reads nothing while the parent sends one
// `bytes`-long chunk on each, split over `loops` threads (the server's event loops); the parent's
// CPU (user + system, /proc/self/stat ticks and CLOCK_PROCESS_CPUTIME_ID) over the sends is
// divided by the number of sends. Between rounds the child drains its sockets, as the benchmark's
// client does once its hold ends, so every round sends into empty receive queues.
//
// Prints one JSON object. Built and run by Benchmarks/run; by hand:
//   cc -O2 -pthread -o /tmp/sendfloor Benchmarks/floor/sendfloor.c && /tmp/sendfloor --streams 10000
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int streams = 10000, bytes = 400, loops = 2, rounds = 5;
static int *sent_fds;
static char *chunk;

static void die(const char *what) {
    fprintf(stderr, "sendfloor: %s: %s\n", what, strerror(errno));
    exit(1);
}

static long ticks_self(void) {
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) die("open /proc/self/stat");
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) die("parse /proc/self/stat");
    long utime = 0, stime = 0;
    // After ")": state, then fields 4.. ; utime and stime are fields 14 and 15.
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &utime, &stime) != 2)
        die("parse /proc/self/stat fields");
    return utime + stime;
}

static double now_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

struct slice { int from, to; };

static void *send_slice(void *arg) {
    struct slice *s = arg;
    for (int i = s->from; i < s->to; i++) {
        ssize_t w = send(sent_fds[i], chunk, (size_t)bytes, MSG_NOSIGNAL);
        if (w != bytes) die("send");
    }
    return NULL;
}

// The child: connects every stream, then per round waits for a byte on `go`, drains every socket
// and answers on `done`; exits when `go` closes.
static void hold_streams(int port, int go, int done) {
    int *fds = calloc((size_t)streams, sizeof(int));
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    for (int i = 0; i < streams; i++) {
        fds[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (fds[i] < 0) die("child socket");
        if (connect(fds[i], (struct sockaddr *)&addr, sizeof addr) < 0) die("connect");
    }
    char c = 'r';
    if (write(done, &c, 1) != 1) die("child ready");
    char *sink = malloc(65536);
    while (read(go, &c, 1) == 1) {
        for (int i = 0; i < streams; i++) {
            ssize_t got = 0;
            while (got < bytes) {
                ssize_t r = recv(fds[i], sink, 65536, 0);
                if (r <= 0) die("child recv");
                got += r;
            }
        }
        if (write(done, &c, 1) != 1) die("child done");
    }
    _exit(0);
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        int v = atoi(argv[i + 1]);
        if (v <= 0) { fprintf(stderr, "sendfloor: %s needs a positive number\n", argv[i]); return 2; }
        if (!strcmp(argv[i], "--streams")) streams = v;
        else if (!strcmp(argv[i], "--bytes")) bytes = v;
        else if (!strcmp(argv[i], "--loops")) loops = v;
        else if (!strcmp(argv[i], "--rounds")) rounds = v;
        else { fprintf(stderr, "usage: sendfloor [--streams N] [--bytes B] [--loops L] [--rounds R]\n"); return 2; }
    }
    chunk = malloc((size_t)bytes);
    memset(chunk, 'x', (size_t)bytes);
    sent_fds = calloc((size_t)streams, sizeof(int));

    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 4096) < 0) die("listen");
    if (getsockname(lfd, (struct sockaddr *)&addr, &len) < 0) die("getsockname");

    int go[2], done[2];
    if (pipe(go) < 0 || pipe(done) < 0) die("pipe");
    pid_t child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
        close(go[1]);
        close(done[0]);
        close(lfd);
        hold_streams(ntohs(addr.sin_port), go[0], done[1]);
    }
    close(go[0]);
    close(done[1]);
    int one = 1;
    for (int i = 0; i < streams; i++) {
        sent_fds[i] = accept(lfd, NULL, NULL);
        if (sent_fds[i] < 0) die("accept");
        // As the server does: an event goes out at once, not after the previous one's ACK.
        setsockopt(sent_fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    char c;
    if (read(done[0], &c, 1) != 1) die("child not ready");

    double tick_us = 1e6 / (double)sysconf(_SC_CLK_TCK);
    double sum_cpu = 0, sum_ticks = 0, sum_wall = 0;
    printf("{\"streams\": %d, \"bytes\": %d, \"loops\": %d, \"rounds\": %d, \"cpu_us_per_send_rounds\": [",
           streams, bytes, loops, rounds);
    pthread_t *threads = calloc((size_t)loops, sizeof(pthread_t));
    struct slice *slices = calloc((size_t)loops, sizeof(struct slice));
    for (int r = 0; r < rounds; r++) {
        long t0 = ticks_self();
        double c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID), w0 = now_ns(CLOCK_MONOTONIC);
        for (int l = 0; l < loops; l++) {
            slices[l].from = (int)((long)streams * l / loops);
            slices[l].to = (int)((long)streams * (l + 1) / loops);
            if (pthread_create(&threads[l], NULL, send_slice, &slices[l]) != 0) die("pthread_create");
        }
        for (int l = 0; l < loops; l++) pthread_join(threads[l], NULL);
        double c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID), w1 = now_ns(CLOCK_MONOTONIC);
        long t1 = ticks_self();
        double per = (c1 - c0) / 1e3 / streams;
        sum_cpu += per;
        sum_ticks += (double)(t1 - t0) * tick_us / streams;
        sum_wall += (w1 - w0) / 1e6;
        printf("%s%.3f", r ? ", " : "", per);
        fflush(stdout);
        c = 'g';
        if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1) die("child drain");
    }
    printf("], \"cpu_us_per_send\": %.3f, \"tick_cpu_us_per_send\": %.3f, \"wall_ms\": %.3f}\n",
           sum_cpu / rounds, sum_ticks / rounds, sum_wall / rounds);
    close(go[1]);
    waitpid(child, NULL, 0);
    return 0;
}
