#define _GNU_SOURCE
#include "CSystemSupport.h"

#include <pthread.h>

int csys_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }
