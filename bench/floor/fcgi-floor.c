/* The FastCGI floor for `make bench`: the least a libfcgi responder can do per request. Threads
   wait in FCGX_Accept_r on one listening socket (libfcgi's own model: a thread per kept
   connection) and answer every request with the same 1.6 KB page. Compiled at bench time:
     gcc -O2 -o fcgi-floor fcgi-floor.c -lfcgi -lpthread
   Usage: fcgi-floor SOCKET_PATH THREADS */
#include <fcgiapp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int listener;
static char page[1600 + 1];

static void *serve(void *unused) {
    (void)unused;
    FCGX_Request request;
    FCGX_InitRequest(&request, listener, 0);
    while (FCGX_Accept_r(&request) >= 0) {
        FCGX_FPrintF(request.out, "Status: 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                                  "Content-Length: %d\r\n\r\n", (int)strlen(page));
        FCGX_PutStr(page, (int)strlen(page), request.out);
        FCGX_Finish_r(&request);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s SOCKET_PATH THREADS\n", argv[0]); return 2; }
    int threads = atoi(argv[2]);
    memset(page, 'x', sizeof page - 1);
    memcpy(page, "<!doctype html><title>floor</title><p>", 38);
    if (FCGX_Init() != 0) return 1;
    listener = FCGX_OpenSocket(argv[1], 1024);
    if (listener < 0) { fprintf(stderr, "cannot listen on %s\n", argv[1]); return 1; }
    chmod(argv[1], 0666);
    pthread_t thread;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&thread, NULL, serve, NULL) != 0) return 1;
    }
    serve(NULL);
    return 0;
}
