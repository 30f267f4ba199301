/* The FastCGI limit for `make bench`: what FastCGI behind nginx allows on this machine, with no
   library at all. One epoll loop per thread (one per core), each accepting on the shared
   listening socket (EPOLLEXCLUSIVE) and keeping its connections; records are framed by hand and
   every request gets one prebuilt answer (the floor's 1.6 KB page, its STDOUT, the empty STDOUT
   and END_REQUEST) written with one send. Given ANSWER_FILE (a CGI answer: its header lines, a
   blank line, its body), that answer is sent in place of the page: the product's own page, byte
   for byte, so that what nginx and wrk spend on its size is the limit's too. Compiled at bench time:
     gcc -O2 -o fcgi-limit fcgi-limit.c -lpthread
   Usage: fcgi-limit SOCKET_PATH THREADS [ANSWER_FILE] */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

enum { HEADER = 8, BEGIN_REQUEST = 1, PARAMS = 4, STDIN = 5, STDOUT = 6, END_REQUEST = 3 };
enum { BUFFER = 256 * 1024 };

static int listener;
static unsigned char answer[16 * 1024];
static size_t answer_length;

struct connection {
    int fd;
    size_t used;
    unsigned char in[BUFFER];
};

static void header(unsigned char *at, int type, int id, int length) {
    at[0] = 1, at[1] = (unsigned char)type, at[2] = (unsigned char)(id >> 8), at[3] = (unsigned char)id;
    at[4] = (unsigned char)(length >> 8), at[5] = (unsigned char)length, at[6] = 0, at[7] = 0;
}

/* The answer to request 1 (nginx numbers every request on a kept connection 1); its id bytes
   are patched for any other. Its STDOUT is the CGI answer in `file`, else the 1.6 KB page. */
static void prepare(const char *file) {
    static char cgi[sizeof answer - 4 * HEADER];
    int length;
    if (file != NULL) {
        FILE *in = fopen(file, "rb");
        if (in == NULL) { fprintf(stderr, "cannot read %s\n", file); exit(2); }
        length = (int)fread(cgi, 1, sizeof cgi, in);
        int more = fgetc(in) != EOF;
        fclose(in);
        if (more) { fprintf(stderr, "%s is over %zu bytes\n", file, sizeof cgi); exit(2); }
    } else {
        static char page[1600 + 1];
        memset(page, 'x', sizeof page - 1);
        memcpy(page, "<!doctype html><title>limit</title><p>", 38);
        length = snprintf(cgi, sizeof cgi,
                          "Status: 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                          "Content-Length: %d\r\n\r\n%s", (int)strlen(page), page);
    }
    unsigned char *at = answer;
    header(at, STDOUT, 1, length), at += HEADER;
    memcpy(at, cgi, (size_t)length), at += length;
    header(at, STDOUT, 1, 0), at += HEADER;
    header(at, END_REQUEST, 1, 8), at += HEADER;
    memset(at, 0, 8), at += 8;
    answer_length = (size_t)(at - answer);
}

static void patch_id(unsigned char *out, int id) {
    size_t stdout_body = ((size_t)answer[4] << 8) | answer[5];
    size_t offsets[3] = {0, HEADER + stdout_body, 2 * HEADER + stdout_body};
    for (int i = 0; i < 3; i++) out[offsets[i] + 2] = (unsigned char)(id >> 8), out[offsets[i] + 3] = (unsigned char)id;
}

/* Reads what arrived, answers every request whose empty STDIN record came, in one send.
   Returns -1 when the connection is to be closed. */
static int serve(struct connection *c) {
    static __thread unsigned char out[64 * 1024];
    for (;;) {
        ssize_t n = read(c->fd, c->in + c->used, BUFFER - c->used);
        if (n == 0) return -1;
        if (n < 0) return errno == EAGAIN ? 0 : -1;
        c->used += (size_t)n;
        size_t at = 0, written = 0;
        while (c->used - at >= HEADER) {
            unsigned char *record = c->in + at;
            size_t length = ((size_t)record[4] << 8) | record[5];
            size_t total = HEADER + length + record[6];
            if (c->used - at < total) break;
            if (record[1] == STDIN && length == 0) {
                if (written + answer_length > sizeof out) return -1;
                memcpy(out + written, answer, answer_length);
                patch_id(out + written, (record[2] << 8) | record[3]);
                written += answer_length;
            }
            at += total;
        }
        memmove(c->in, c->in + at, c->used - at);
        c->used -= at;
        if (c->used == BUFFER) return -1;
        if (written > 0 && send(c->fd, out, written, MSG_NOSIGNAL) != (ssize_t)written) return -1;
    }
}

static void *loop(void *unused) {
    (void)unused;
    int poller = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN | EPOLLEXCLUSIVE, .data.ptr = NULL};
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event);
    struct epoll_event events[64];
    for (;;) {
        int ready = epoll_wait(poller, events, 64, -1);
        for (int i = 0; i < ready; i++) {
            struct connection *c = events[i].data.ptr;
            if (c == NULL) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    struct connection *fresh = malloc(sizeof *fresh);
                    fresh->fd = fd, fresh->used = 0;
                    struct epoll_event in = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = fresh};
                    epoll_ctl(poller, EPOLL_CTL_ADD, fd, &in);
                }
                continue;
            }
            if (serve(c) < 0) {
                close(c->fd);
                free(c);
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s SOCKET_PATH THREADS [ANSWER_FILE]\n", argv[0]);
        return 2;
    }
    int threads = atoi(argv[2]);
    prepare(argc == 4 ? argv[3] : NULL);
    listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1024) != 0) {
        fprintf(stderr, "cannot listen on %s\n", argv[1]);
        return 1;
    }
    chmod(argv[1], 0666);
    pthread_t thread;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&thread, NULL, loop, NULL) != 0) return 1;
    }
    loop(NULL);
    return 0;
}
