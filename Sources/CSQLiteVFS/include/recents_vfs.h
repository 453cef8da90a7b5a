#ifndef RECENTS_VFS_H
#define RECENTS_VFS_H

/// Registers "recents-wal-buffer", the default VFS with one change, as the default for every
/// connection opened afterwards: a WAL file's writes are gathered in memory and reach the
/// file, in order, in one write before that file is synced, read, sized, truncated, closed or
/// written out of sequence. SQLite writes each WAL frame as two writes (its 24-byte header,
/// then the page); a group commit of ~70 frames then costs ~140 write calls, each preparing
/// and dirtying page-cache pages, where one call now does. Nothing is acknowledged earlier or
/// later than before: SQLite's commit syncs the WAL, which writes the gathered bytes first.
/// That sync is also what puts a commit's frames in the file before other connections, which
/// read them from the file, are told of the commit: the shim relies on every commit syncing the
/// WAL (`synchronous=FULL`, which SQLiteConnection sets; with NORMAL it would not).
/// Returns SQLITE_OK or SQLite's error; calling it again does nothing.
int recents_register_wal_buffer_vfs(void);

#endif
