#ifndef RECENTS_CSQLITE_SHIM_H
#define RECENTS_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
