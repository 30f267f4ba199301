#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H
/* Only the blocking API: each worker thread that talks to Redis holds a lock on its connection. */
#include <hiredis/hiredis.h>
#include <sys/time.h>

/* A struct timeval of whole milliseconds (Swift sees suseconds_t differently per platform). */
static inline struct timeval CHiredis_milliseconds(long milliseconds) {
    struct timeval tv;
    tv.tv_sec = milliseconds / 1000;
    tv.tv_usec = (milliseconds % 1000) * 1000;
    return tv;
}

/* The context's error text, or NULL when it has none. */
static inline const char *CHiredis_error(const redisContext *context) {
    return context->err ? context->errstr : NULL;
}
#endif
