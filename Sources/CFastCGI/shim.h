#ifndef CFASTCGI_SHIM_H
#define CFASTCGI_SHIM_H
/* Only fcgiapp.h: fcgi_stdio.h redefines printf and stdout. */
#include <stdio.h>
#include <fcgiapp.h>
#include <signal.h>
#include <pthread.h>

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
#endif
