#define _GNU_SOURCE
#include "CSystemSupport.h"

#include <malloc.h>
#include <pthread.h>

int csys_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

int csys_set_heap_top_pad(int bytes) { return mallopt(M_TOP_PAD, bytes); }
