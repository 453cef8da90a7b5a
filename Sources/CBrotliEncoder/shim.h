#ifndef RECENTS_CBROTLIENCODER_SHIM_H
#define RECENTS_CBROTLIENCODER_SHIM_H
/* libbrotlienc (it pulls in libbrotlicommon). */
#include <brotli/encode.h>
#endif
