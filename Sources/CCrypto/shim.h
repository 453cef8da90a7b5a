#ifndef RECENTS_CCRYPTO_SHIM_H
#define RECENTS_CCRYPTO_SHIM_H
/* Only OpenSSL 3's current API is visible: deprecated declarations (SHA256_Init, HMAC_CTX, ...)
   are compiled out, so nothing in the tree can come to depend on them, and Swift sees no
   deprecation warnings (CI builds with -warnings-as-errors). */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

/* A context keyed for HMAC-SHA256, or NULL. Re-initialising it with EVP_MAC_init(ctx, NULL, 0,
   NULL) keeps the key (EVP_MAC_init(3)), which costs a fifth of a one-shot HMAC() under OpenSSL 3:
   that call fetches the algorithm and derives the key pads again every time. Written in C
   because OSSL_PARAM arrays are C structs built by macros and constructors. */
static inline EVP_MAC_CTX *recents_hmac_sha256_context(const unsigned char *key, size_t length) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac); /* the context holds its own reference */
    if (context == NULL) return NULL;
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
        OSSL_PARAM_construct_end(),
    };
    if (EVP_MAC_init(context, key, length, params) != 1) {
        EVP_MAC_CTX_free(context);
        return NULL;
    }
    return context;
}
#endif
