#ifndef RECENTS_CSQLITE_SHIM_H
#define RECENTS_CSQLITE_SHIM_H
#include <sqlite3.h>
#include <sys/prctl.h>

/* Names the calling thread (at most 15 bytes show) so the store's threads are told apart in
   top -H, perf and /proc; prctl is variadic, which Swift cannot call directly. */
static inline int recents_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
#endif
