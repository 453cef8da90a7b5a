// Every libpq function the store calls, forwarded to libpq.so.5 loaded with dlopen on first use.
// The definitions are hidden: were they exported, libpq's own internal calls to these names could
// bind to them instead of to libpq itself and recurse. The C library's headers come first: declared
// inside the hidden region, libc's own functions (snprintf) would be looked for in this binary.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#pragma GCC visibility push(hidden)
#include "CLibPQ.h"
#pragma GCC visibility pop

// (return type, name, parameters, arguments) of each function used but PQconnectdbParams, which loads.
#define RECENTS_LIBPQ_FUNCTIONS(X, V)                                                             \
    V(PQfinish, (PGconn * conn), (conn))                                                          \
    V(PQreset, (PGconn * conn), (conn))                                                           \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn))                                     \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))                 \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn))                                       \
    X(int, PQsocket, (const PGconn *conn), (conn))                                                \
    X(int, PQbackendPID, (const PGconn *conn), (conn))                                            \
    X(char *, PQhost, (const PGconn *conn), (conn))                                               \
    X(char *, PQport, (const PGconn *conn), (conn))                                               \
    X(PQconninfoOption *, PQconninfo, (PGconn * conn), (conn))                                    \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * conn, PQnoticeProcessor proc, void *arg),  \
      (conn, proc, arg))                                                                          \
    V(PQconninfoFree, (PQconninfoOption * connOptions), (connOptions))                            \
    X(PGresult *, PQexec, (PGconn * conn, const char *query), (conn, query))                      \
    X(PGresult *, PQprepare,                                                                      \
      (PGconn * conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes))                                               \
    X(PGresult *, PQexecPrepared,                                                                 \
      (PGconn * conn, const char *stmtName, int nParams, const char *const *paramValues,          \
       const int *paramLengths, const int *paramFormats, int resultFormat),                       \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))           \
    X(int, PQsendQueryPrepared,                                                                   \
      (PGconn * conn, const char *stmtName, int nParams, const char *const *paramValues,          \
       const int *paramLengths, const int *paramFormats, int resultFormat),                       \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))           \
    X(PGresult *, PQgetResult, (PGconn * conn), (conn))                                           \
    X(int, PQenterPipelineMode, (PGconn * conn), (conn))                                          \
    X(int, PQexitPipelineMode, (PGconn * conn), (conn))                                           \
    X(int, PQpipelineSync, (PGconn * conn), (conn))                                               \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res))                               \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))         \
    V(PQclear, (PGresult * res), (res))                                                           \
    X(int, PQntuples, (const PGresult *res), (res))                                               \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQcmdTuples, (PGresult * res), (res))                                               \
    X(int, PQconsumeInput, (PGconn * conn), (conn))                                               \
    X(PGnotify *, PQnotifies, (PGconn * conn), (conn))                                            \
    V(PQfreemem, (void *ptr), (ptr))

#define RECENTS_POINTER(type, name, params, args) static type(*loaded_##name) params;
#define RECENTS_VOID_POINTER(name, params, args) static void(*loaded_##name) params;
RECENTS_LIBPQ_FUNCTIONS(RECENTS_POINTER, RECENTS_VOID_POINTER)
static PGconn *(*loaded_PQconnectdbParams)(const char *const *keywords, const char *const *values,
                                           int expand_dbname);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "PostgreSQL needs libpq (Debian: libpq5): %s", dlerror());
        return;
    }
#define RECENTS_RESOLVE(name)                                                                     \
    *(void **)(&loaded_##name) = dlsym(library, #name);                                           \
    if (loaded_##name == NULL) {                                                                  \
        snprintf(load_error, sizeof load_error, "libpq.so.5 lacks %s (libpq 14 or newer needed)", #name); \
        return;                                                                                   \
    }
#define RECENTS_RESOLVE_X(type, name, params, args) RECENTS_RESOLVE(name)
#define RECENTS_RESOLVE_V(name, params, args) RECENTS_RESOLVE(name)
    RECENTS_RESOLVE(PQconnectdbParams)
    RECENTS_LIBPQ_FUNCTIONS(RECENTS_RESOLVE_X, RECENTS_RESOLVE_V)
    loaded = 1;
}

const char *recents_libpq_load(void) {
    pthread_once(&load_once, load);
    return loaded ? NULL : load_error;
}

// Every other function is reached only through a connection, which PQconnectdbParams made after loading.
#define RECENTS_DEFINE(type, name, params, args) \
    type name params { return loaded_##name args; }
#define RECENTS_DEFINE_VOID(name, params, args) \
    void name params { loaded_##name args; }

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    if (recents_libpq_load() != NULL) return NULL;
    return loaded_PQconnectdbParams(keywords, values, expand_dbname);
}
RECENTS_LIBPQ_FUNCTIONS(RECENTS_DEFINE, RECENTS_DEFINE_VOID)
