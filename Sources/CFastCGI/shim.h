#ifndef CFASTCGI_SHIM_H
#define CFASTCGI_SHIM_H
/* The C side of the FastCGI server: libfcgi, which the design card names for FastCGI, and the
   Linux calls the serving core makes around it (epoll, accept4, peer credentials, signals).
   libfcgi opens the listening socket (FCGX_OpenSocket: its address forms, its backlog, its
   FCGI_WEB_SERVER_ADDRS reading are what web servers expect). It no longer reads or writes the
   records: it takes a request only once whole, found by peeking (one more system call a
   request), and copies every parameter into a NAME=VALUE string of its own; measured in one
   `make bench` run, the logged-in page cost 24.4 us of worker CPU with it and 20.3 us without.
   The records are read in place by FastCGIServer/Protocol (RequestFraming, ReceivedRequest,
   AnswerRecords), each checked against the FastCGI 1.0 specification and fuzzed.
   Only fcgiapp.h: fcgi_stdio.h redefines printf and stdout. */
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
#include <sys/resource.h>
#include <malloc.h>
#include <stddef.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>
#include <poll.h>
#include <sys/uio.h>

/* Writes the coverage counts of a build instrumented for it (LLVM's profile runtime, linked in
   only then: the weak reference is null in any other build). Swift cannot declare a weak symbol. */
extern int __llvm_profile_write_file(void) __attribute__((weak));
static inline void CFastCGI_writeCoverageProfile(void) {
    if (__llvm_profile_write_file) __llvm_profile_write_file();
}

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

/* Accepts one connection without waiting; the connection does not block either: requests are
   read only as far as they have arrived, and an answer that does not fit in the socket's buffer
   (a peer not reading) fails the request instead of waiting.
   -1 with errno set when none is waiting. */
static inline int CFastCGI_acceptConnection(int listeningFd) {
    int fd = accept4(listeningFd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0) {
        /* Over TCP, answers must not wait for Nagle; on a unix socket this fails harmlessly. */
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

/* 1 with the peer process's id and user id for a unix-socket connection (SO_PEERCRED, as the
   kernel saw them at connect), 0 for any other kind, -1 on failure. */
static inline int CFastCGI_peerCredentials(int fd, int32_t *pid, uint32_t *uid) {
    struct sockaddr_storage local;
    socklen_t length = sizeof local;
    if (getsockname(fd, (struct sockaddr *)&local, &length) != 0) return -1;
    if (local.ss_family != AF_UNIX) return 0;
    /* struct ucred's layout, declared here: the system's needs _GNU_SOURCE, which would make
       this module's view of the C headers differ from the other modules' (a build error). */
    struct { int32_t pid; uint32_t uid; uint32_t gid; } credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    return 1;
}

/* Watches fd for input, reported once (EPOLLONESHOT) until watched again, so only one thread
   ever accepts at a time; `add` is 1 for a new fd, 0 to re-arm one. */
static inline int CFastCGI_pollerWatchOnce(int poller, int fd, uint64_t token, int add) {
    struct epoll_event event = { .events = EPOLLIN | EPOLLONESHOT, .data = { .u64 = token } };
    return epoll_ctl(poller, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/* Watches a connection for good, edge-triggered: reported when bytes arrive or the peer hangs up,
   not again for bytes already reported, so a connection needs no call to watch it again after
   each event (its owner reads until the socket is drained). */
static inline int CFastCGI_pollerWatchEdges(int poller, int fd, uint64_t token) {
    struct epoll_event event = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data = { .u64 = token } };
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}

/* Stops watching fd (the listening socket, when the worker stops accepting). */
static inline int CFastCGI_pollerForget(int poller, int fd) {
    struct epoll_event unused;
    return epoll_ctl(poller, EPOLL_CTL_DEL, fd, &unused);
}

/* Watches fd for input for good (the stop signal's eventfd: it wakes every thread). */
static inline int CFastCGI_pollerWatchAlways(int poller, int fd, uint64_t token) {
    struct epoll_event event = { .events = EPOLLIN, .data = { .u64 = token } };
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}

/* Waits until fds are ready and writes the tokens of up to `most` (at most 64) of them to
   `tokens`; returns how many. Retries when interrupted; -1 (errno set) on failure. */
static inline int CFastCGI_pollerWait(int poller, uint64_t *tokens, int most) {
    struct epoll_event events[64];
    if (most > 64) most = 64;
    for (;;) {
        int count = epoll_wait(poller, events, most, -1);
        if (count > 0) {
            for (int index = 0; index < count; index++) tokens[index] = events[index].data.u64;
            return count;
        }
        if (count < 0 && errno != EINTR) return -1;
    }
}

/* Raises the soft limit on open files to the hard limit (at most `most`); returns the soft limit. */
static inline long CFastCGI_raiseFileLimit(long most) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
    rlim_t wanted = limit.rlim_max < (rlim_t)most ? limit.rlim_max : (rlim_t)most;
    if (limit.rlim_cur < wanted) {
        limit.rlim_cur = wanted;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) getrlimit(RLIMIT_NOFILE, &limit);
    }
    return (long)limit.rlim_cur;
}

/* The service manager's address (NOTIFY_SOCKET: a unix datagram socket, a leading '@' for the
   abstract namespace) in `address`: its length, or 0 when there is none or it is too long. */
static inline socklen_t CFastCGI_notifyAddress(const char *path, struct sockaddr_un *address) {
    if (path == NULL || path[0] == 0) return 0;
    size_t length = strlen(path);
    if (length >= sizeof address->sun_path) return 0;
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    memcpy(address->sun_path, path, length);
    if (path[0] == '@') address->sun_path[0] = 0;
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length);
}

/* Sends one datagram to the service manager (sd_notify's protocol). 0 when sent, -1 otherwise. */
static inline int CFastCGI_notify(const char *path, const char *message) {
    struct sockaddr_un address;
    socklen_t length = CFastCGI_notifyAddress(path, &address);
    if (length == 0) return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    /* Never waits: a notice the manager's full queue cannot take is dropped (the next one comes),
       where a blocking send hung the thread that sent it, the one that waits for SIGTERM. */
    ssize_t sent =
        sendto(fd, message, strlen(message), MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&address, length);
    close(fd);
    return sent < 0 ? -1 : 0;
}

/* sd_notify's barrier: sends BARRIER=1 with the write end of a new pipe, closes its own copy,
   and waits (at most timeout_ms) until the manager closes the one it received, which it does
   once it has read every notice sent before. 0 when it did, -1 otherwise. */
static inline int CFastCGI_notifyBarrier(const char *path, int timeout_ms) {
    struct sockaddr_un address;
    socklen_t length = CFastCGI_notifyAddress(path, &address);
    if (length == 0) return -1;
    int pipes[2];
    if (pipe2(pipes, O_CLOEXEC) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { close(pipes[0]); close(pipes[1]); return -1; }
    char text[] = "BARRIER=1";
    struct iovec part = { .iov_base = text, .iov_len = sizeof text - 1 };
    union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {
        .msg_name = &address, .msg_namelen = length,
        .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer,
    };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &pipes[1], sizeof(int));
    ssize_t sent = sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    close(fd);
    close(pipes[1]);
    int result = -1;
    if (sent >= 0) {
        struct pollfd waiting = { .fd = pipes[0], .events = POLLIN };
        result = poll(&waiting, 1, timeout_ms) == 1 ? 0 : -1;  /* POLLHUP: the manager closed it */
    }
    close(pipes[0]);
    return result;
}

#endif
