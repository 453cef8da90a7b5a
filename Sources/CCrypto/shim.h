#ifndef RECENTS_CCRYPTO_SHIM_H
#define RECENTS_CCRYPTO_SHIM_H
/* Only OpenSSL 3's current API is visible: deprecated declarations (SHA256_Init, HMAC_CTX, ...)
   are compiled out, so nothing in the tree can come to depend on them, and Swift sees no
   deprecation warnings (CI builds with -warnings-as-errors). */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#endif
