#ifndef RECENTS_CSQLITE_SHIM_H
#define RECENTS_CSQLITE_SHIM_H
#include <sqlite3.h>

/// Turns off SQLite's memory statistics before the library initialises (sqlite3_config is
/// variadic, so Swift cannot call it). With them on, every allocation SQLite makes takes one
/// process-wide mutex to count bytes nobody reads; the store never asks for them.
/// Returns SQLITE_MISUSE when SQLite was already initialised (then nothing changes).
static inline int recents_sqlite_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
