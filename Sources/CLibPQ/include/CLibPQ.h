#ifndef RECENTS_CLIBPQ_H
#define RECENTS_CLIBPQ_H
// libpq's types and functions as libpq-fe.h declares them (from libpq-dev at build time). The
// functions are defined in CLibPQ.c, which loads libpq.so.5 on first use: a server on SQLite never
// maps libpq and the ~20 libraries it pulls in (GnuTLS, Kerberos, LDAP, ...), ~3.6 MB of idle RSS.
#include <postgresql/libpq-fe.h>

/// Loads libpq.so.5 once; NULL when it is usable, else why not (for the start-up error).
const char *recents_libpq_load(void);
#endif
