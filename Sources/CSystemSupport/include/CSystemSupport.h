#ifndef RECENTS_CSYSTEMSUPPORT_H
#define RECENTS_CSYSTEMSUPPORT_H

// What SystemSupport needs that Glibc's Swift overlay does not expose: naming a thread (prctl is
// variadic, which Swift cannot call; pthread_setname_np needs _GNU_SOURCE), and mallopt
// (<malloc.h> is not in the overlay).

/// Sets the calling thread's kernel-visible name (at most 15 bytes); returns 0 or an errno.
int csys_set_thread_name(const char *name);

/// mallopt(M_TOP_PAD, bytes): returns 1 when glibc took it, 0 when it refused.
int csys_set_heap_top_pad(int bytes);

#endif
