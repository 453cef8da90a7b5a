// A VFS shim over the platform's default VFS (unix) that gathers a WAL file's writes: see
// include/recents_vfs.h. Every call other than a WAL file's xWrite goes straight through; the
// ones that could observe the file (read, size, truncate, sync, file control, close) first write
// what was gathered, so each sees exactly the file it would have seen without the shim.
#include "recents_vfs.h"

#include <sqlite3.h>
#include <string.h>

/// Bytes gathered before they are written: a group commit of ~70 frames (~290 KiB) goes out in
/// three writes. Not more: the unix VFS keeps only the low 17 bits of a write's length
/// (seekAndWriteFd's `nBuf &= 0x1ffff`), so a write of 128 KiB or more would come out short and
/// be reported as a full disk.
#define GATHER_CAPACITY (124 * 1024)

typedef struct GatheringFile {
    sqlite3_file base;
    /// The default VFS's file, allocated right behind this struct.
    sqlite3_file *real;
    /// Gathered bytes, for the file offset `start` (allocated on the first write).
    unsigned char *buffer;
    sqlite3_int64 start;
    int length;
} GatheringFile;

static sqlite3_vfs *realVfs;
static sqlite3_vfs gatheringVfs;
static sqlite3_io_methods walMethods;
static sqlite3_io_methods passMethods;

#define REAL(f) (((GatheringFile *)(f))->real)

/// Writes what was gathered; on failure it is dropped, like a write SQLite saw fail (SQLite then
/// abandons the transaction that wrote it).
static int flushGathered(GatheringFile *p) {
    if (p->length == 0) return SQLITE_OK;
    int rc = p->real->pMethods->xWrite(p->real, p->buffer, p->length, p->start);
    p->length = 0;
    return rc;
}

static int walWrite(sqlite3_file *f, const void *data, int amount, sqlite3_int64 offset) {
    GatheringFile *p = (GatheringFile *)f;
    int rc;
    // Only a write that continues the gathered bytes joins them: anything else (the header
    // rewritten at 0, a frame rewritten in place) goes after them, in the order SQLite wrote.
    if (p->length > 0 && (offset != p->start + p->length || amount > GATHER_CAPACITY - p->length)) {
        if ((rc = flushGathered(p)) != SQLITE_OK) return rc;
    }
    if (amount > GATHER_CAPACITY) return p->real->pMethods->xWrite(p->real, data, amount, offset);
    if (p->buffer == NULL) {
        p->buffer = sqlite3_malloc(GATHER_CAPACITY);
        if (p->buffer == NULL) return p->real->pMethods->xWrite(p->real, data, amount, offset);
    }
    if (p->length == 0) p->start = offset;
    memcpy(p->buffer + p->length, data, (size_t)amount);
    p->length += amount;
    return SQLITE_OK;
}

static int walClose(sqlite3_file *f) {
    GatheringFile *p = (GatheringFile *)f;
    int flushed = flushGathered(p);
    sqlite3_free(p->buffer);
    p->buffer = NULL;
    int rc = p->real->pMethods->xClose(p->real);
    return flushed != SQLITE_OK ? flushed : rc;
}

static int walRead(sqlite3_file *f, void *data, int amount, sqlite3_int64 offset) {
    int rc = flushGathered((GatheringFile *)f);
    return rc != SQLITE_OK ? rc : REAL(f)->pMethods->xRead(REAL(f), data, amount, offset);
}

static int walTruncate(sqlite3_file *f, sqlite3_int64 size) {
    int rc = flushGathered((GatheringFile *)f);
    return rc != SQLITE_OK ? rc : REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int walSync(sqlite3_file *f, int flags) {
    int rc = flushGathered((GatheringFile *)f);
    return rc != SQLITE_OK ? rc : REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int walFileSize(sqlite3_file *f, sqlite3_int64 *size) {
    int rc = flushGathered((GatheringFile *)f);
    return rc != SQLITE_OK ? rc : REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int walFileControl(sqlite3_file *f, int op, void *arg) {
    int rc = flushGathered((GatheringFile *)f);
    return rc != SQLITE_OK ? rc : REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

// Straight through, for WAL and other files alike.
static int passClose(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int passRead(sqlite3_file *f, void *d, int n, sqlite3_int64 o) {
    return REAL(f)->pMethods->xRead(REAL(f), d, n, o);
}
static int passWrite(sqlite3_file *f, const void *d, int n, sqlite3_int64 o) {
    return REAL(f)->pMethods->xWrite(REAL(f), d, n, o);
}
static int passTruncate(sqlite3_file *f, sqlite3_int64 s) { return REAL(f)->pMethods->xTruncate(REAL(f), s); }
static int passSync(sqlite3_file *f, int flags) { return REAL(f)->pMethods->xSync(REAL(f), flags); }
static int passFileSize(sqlite3_file *f, sqlite3_int64 *s) { return REAL(f)->pMethods->xFileSize(REAL(f), s); }
static int passLock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int passUnlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int passCheckReservedLock(sqlite3_file *f, int *out) {
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}
static int passFileControl(sqlite3_file *f, int op, void *arg) {
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}
static int passSectorSize(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int passDeviceCharacteristics(sqlite3_file *f) {
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}
static int passShmMap(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    return REAL(f)->pMethods->xShmMap(REAL(f), region, size, extend, out);
}
static int passShmLock(sqlite3_file *f, int offset, int n, int flags) {
    return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}
static void passShmBarrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int passShmUnmap(sqlite3_file *f, int deleteFlag) { return REAL(f)->pMethods->xShmUnmap(REAL(f), deleteFlag); }
static int passFetch(sqlite3_file *f, sqlite3_int64 o, int n, void **out) {
    return REAL(f)->pMethods->xFetch(REAL(f), o, n, out);
}
static int passUnfetch(sqlite3_file *f, sqlite3_int64 o, void *page) {
    return REAL(f)->pMethods->xUnfetch(REAL(f), o, page);
}

static int gatheringOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *outFlags) {
    (void)vfs;
    GatheringFile *p = (GatheringFile *)f;
    memset(p, 0, sizeof(*p));
    p->real = (sqlite3_file *)&p[1];
    int rc = realVfs->xOpen(realVfs, name, p->real, flags, outFlags);
    // SQLite calls xClose exactly when base.pMethods is set: mirror the real file's.
    if (p->real->pMethods == NULL) return rc;
    // The real file's methods must be version 3 (unix's are): ours promise every member.
    if (p->real->pMethods->iVersion < 3) {
        p->real->pMethods->xClose(p->real);
        return SQLITE_CANTOPEN;
    }
    p->base.pMethods = (flags & SQLITE_OPEN_WAL) ? &walMethods : &passMethods;
    return rc;
}

// The VFS's other calls name no file: the real VFS's, given the real VFS.
static int vfsDelete(sqlite3_vfs *v, const char *n, int s) { (void)v; return realVfs->xDelete(realVfs, n, s); }
static int vfsAccess(sqlite3_vfs *v, const char *n, int f, int *o) {
    (void)v;
    return realVfs->xAccess(realVfs, n, f, o);
}
static int vfsFullPathname(sqlite3_vfs *v, const char *n, int size, char *out) {
    (void)v;
    return realVfs->xFullPathname(realVfs, n, size, out);
}
static void *vfsDlOpen(sqlite3_vfs *v, const char *n) { (void)v; return realVfs->xDlOpen(realVfs, n); }
static void vfsDlError(sqlite3_vfs *v, int n, char *out) { (void)v; realVfs->xDlError(realVfs, n, out); }
static void (*vfsDlSym(sqlite3_vfs *v, void *h, const char *s))(void) {
    (void)v;
    return realVfs->xDlSym(realVfs, h, s);
}
static void vfsDlClose(sqlite3_vfs *v, void *h) { (void)v; realVfs->xDlClose(realVfs, h); }
static int vfsRandomness(sqlite3_vfs *v, int n, char *out) { (void)v; return realVfs->xRandomness(realVfs, n, out); }
static int vfsSleep(sqlite3_vfs *v, int us) { (void)v; return realVfs->xSleep(realVfs, us); }
static int vfsCurrentTime(sqlite3_vfs *v, double *t) { (void)v; return realVfs->xCurrentTime(realVfs, t); }
static int vfsGetLastError(sqlite3_vfs *v, int n, char *out) {
    (void)v;
    return realVfs->xGetLastError(realVfs, n, out);
}
static int vfsCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *t) {
    (void)v;
    return realVfs->xCurrentTimeInt64(realVfs, t);
}

int recents_register_wal_buffer_vfs(void) {
    if (realVfs != NULL) return SQLITE_OK;
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL) return SQLITE_ERROR;
    if (real->iVersion < 2) return SQLITE_ERROR;

    passMethods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = passClose,
        .xRead = passRead,
        .xWrite = passWrite,
        .xTruncate = passTruncate,
        .xSync = passSync,
        .xFileSize = passFileSize,
        .xLock = passLock,
        .xUnlock = passUnlock,
        .xCheckReservedLock = passCheckReservedLock,
        .xFileControl = passFileControl,
        .xSectorSize = passSectorSize,
        .xDeviceCharacteristics = passDeviceCharacteristics,
        .xShmMap = passShmMap,
        .xShmLock = passShmLock,
        .xShmBarrier = passShmBarrier,
        .xShmUnmap = passShmUnmap,
        .xFetch = passFetch,
        .xUnfetch = passUnfetch,
    };
    walMethods = passMethods;
    walMethods.xClose = walClose;
    walMethods.xRead = walRead;
    walMethods.xWrite = walWrite;
    walMethods.xTruncate = walTruncate;
    walMethods.xSync = walSync;
    walMethods.xFileSize = walFileSize;
    walMethods.xFileControl = walFileControl;

    gatheringVfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(GatheringFile) + real->szOsFile,
        .mxPathname = real->mxPathname,
        .zName = "recents-wal-buffer",
        .xOpen = gatheringOpen,
        .xDelete = vfsDelete,
        .xAccess = vfsAccess,
        .xFullPathname = vfsFullPathname,
        .xDlOpen = vfsDlOpen,
        .xDlError = vfsDlError,
        .xDlSym = vfsDlSym,
        .xDlClose = vfsDlClose,
        .xRandomness = vfsRandomness,
        .xSleep = vfsSleep,
        .xCurrentTime = vfsCurrentTime,
        .xGetLastError = vfsGetLastError,
        .xCurrentTimeInt64 = vfsCurrentTimeInt64,
    };
    realVfs = real;
    int rc = sqlite3_vfs_register(&gatheringVfs, 1);
    if (rc != SQLITE_OK) realVfs = NULL;
    return rc;
}
