#ifndef RACE_ANNOTATIONS_H
#define RACE_ANNOTATIONS_H

// ThreadSanitizer's annotations, declared weak: in a build with -sanitize=thread its runtime
// defines them; in any other build they are null and each call is one untaken branch.
// Swift's Mutex waits on a futex inside the standard library, which ThreadSanitizer does not
// see, so without these it reports both sides of every critical section as a race.
void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));

static inline void race_acquire(const void *address) {
    if (__tsan_acquire) __tsan_acquire((void *)address);
}

static inline void race_release(const void *address) {
    if (__tsan_release) __tsan_release((void *)address);
}

#endif
