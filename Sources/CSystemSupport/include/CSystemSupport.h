#ifndef RECENTS_CSYSTEMSUPPORT_H
#define RECENTS_CSYSTEMSUPPORT_H

// The one thing SystemSupport needs that Glibc's Swift overlay does not expose: naming a thread
// (prctl is variadic, which Swift cannot call; pthread_setname_np needs _GNU_SOURCE).

/// Sets the calling thread's kernel-visible name (at most 15 bytes); returns 0 or an errno.
int csys_set_thread_name(const char *name);

#endif
