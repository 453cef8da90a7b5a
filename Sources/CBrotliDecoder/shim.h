#ifndef RECENTS_CBROTLIDECODER_SHIM_H
#define RECENTS_CBROTLIDECODER_SHIM_H
/* libbrotlidec (it pulls in libbrotlicommon). */
#include <brotli/decode.h>
#endif
