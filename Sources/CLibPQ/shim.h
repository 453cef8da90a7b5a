#ifndef RECENTS_CLIBPQ_SHIM_H
#define RECENTS_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
