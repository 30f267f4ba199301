#ifndef CFASTCGI_SHIM_H
#define CFASTCGI_SHIM_H
/* Only fcgiapp.h: fcgi_stdio.h redefines printf and stdout. */
#include <stdio.h>
#include <fcgiapp.h>
#include <signal.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/time.h>
#include <unistd.h>

/* Block SIGTERM and SIGINT in the calling thread (and so in threads it starts later). */
static inline int CFastCGI_blockStopSignals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* Wait for SIGTERM or SIGINT; returns the signal number. */
static inline int CFastCGI_waitForStopSignal(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    int sig = 0;
    while (sigwait(&set, &sig) != 0) { }
    return sig;
}

/* libfcgi installs a SIGPIPE handler that only sets a flag; a gone client must not kill us. */
static inline void CFastCGI_ignoreSIGPIPE(void) {
    signal(SIGPIPE, SIG_IGN);
}

/* ---- Kept connections watched by epoll, so that an idle one holds no thread. ---- */

/* Gives libfcgi an accepted connection to read requests from. libfcgi has no call for this;
   ipcFd and keepConnection are fields of FCGX_Request (fcgiapp.h, stable since 2.4.0).
   keepConnection must be set, or FCGX_Accept_r's opening FCGX_Finish_r closes the socket. */
static inline void CFastCGI_attachConnection(FCGX_Request *request, int fd) {
    request->ipcFd = fd;
    request->keepConnection = 1;
}

/* The request's connection, or -1 once libfcgi has closed it (the web server did not ask
   to keep it, or it hung up). */
static inline int CFastCGI_connectionFd(const FCGX_Request *request) {
    return request->ipcFd;
}

/* Accepts one connection without waiting (the listening socket is non-blocking); the
   connection itself blocks, as libfcgi expects, but a peer that stops half-way through a
   request, or stops reading the answer, gives up its thread after `seconds`.
   -1 with errno set when none is waiting. */
static inline int CFastCGI_acceptConnection(int listeningFd, int seconds) {
    int fd = accept4(listeningFd, NULL, NULL, SOCK_CLOEXEC);
    if (fd >= 0) {
        struct timeval limit = { .tv_sec = seconds, .tv_usec = 0 };
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
        /* Over TCP, answers must not wait for Nagle (libfcgi's own accept does the same); on a
           unix socket this fails harmlessly. */
        int on = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    }
    return fd;
}

/* 1 with the peer's IPv4 address (network order) for a TCP connection, 0 for any other kind
   (a unix socket), -1 on failure. */
static inline int CFastCGI_peerIPv4(int fd, uint32_t *address) {
    struct sockaddr_storage peer;
    socklen_t length = sizeof peer;
    if (getpeername(fd, (struct sockaddr *)&peer, &length) != 0) return -1;
    if (peer.ss_family != AF_INET) return 0;
    *address = ((struct sockaddr_in *)&peer)->sin_addr.s_addr;
    return 1;
}

/* 1 with the address (network order) when `text` is a dotted IPv4 address, else 0. */
static inline int CFastCGI_parseIPv4(const char *text, uint32_t *address) {
    struct in_addr parsed;
    if (inet_pton(AF_INET, text, &parsed) != 1) return 0;
    *address = parsed.s_addr;
    return 1;
}

static inline int CFastCGI_setNonBlocking(int fd) {
    int flags = fcntl(fd, F_GETFL, 0);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static inline int CFastCGI_pollerCreate(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/* Watches fd for input, reported once (EPOLLONESHOT) until watched again, so only one thread
   ever holds a connection; `add` is 1 for a new fd, 0 to re-arm one. */
static inline int CFastCGI_pollerWatchOnce(int poller, int fd, uint64_t token, int add) {
    struct epoll_event event = { .events = EPOLLIN | EPOLLONESHOT, .data = { .u64 = token } };
    return epoll_ctl(poller, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/* Watches fd for input for good (the stop signal's eventfd: it wakes every thread). */
static inline int CFastCGI_pollerWatchAlways(int poller, int fd, uint64_t token) {
    struct epoll_event event = { .events = EPOLLIN, .data = { .u64 = token } };
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}

/* Waits for one ready fd and returns its token; retries when interrupted. 0 on failure. */
static inline uint64_t CFastCGI_pollerNext(int poller) {
    struct epoll_event event;
    for (;;) {
        int count = epoll_wait(poller, &event, 1, -1);
        if (count == 1) return event.data.u64;
        if (count < 0 && errno != EINTR) return 0;
    }
}

static inline int CFastCGI_eventCreate(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

static inline void CFastCGI_eventSignal(int fd) {
    uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof one);
    (void)written;
}
#endif
