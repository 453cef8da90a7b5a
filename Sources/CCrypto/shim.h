#ifndef RECENTS_CCRYPTO_SHIM_H
#define RECENTS_CCRYPTO_SHIM_H
/* Only OpenSSL 3's current API is visible: deprecated declarations (SHA256_Init, HMAC_CTX, ...)
   are compiled out, so nothing in the tree can come to depend on them, and Swift sees no
   deprecation warnings (CI builds with -warnings-as-errors). */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

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

/* A public key of `type` ("RSA", "EC") made by the default provider from `params`, or NULL.
   EVP_PKEY_PUBLIC_KEY is a macro over two selection bits, which Swift cannot import. */
static inline EVP_PKEY *recents_public_key_from_params(const char *type, const OSSL_PARAM *params) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (context == NULL) return NULL;
    EVP_PKEY *key = NULL;
    if (EVP_PKEY_fromdata_init(context) != 1
        || EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, (OSSL_PARAM *)params) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

/* An RSA public key from the big-endian modulus and exponent (a JWK's n and e), or NULL. The
   builder converts the BIGNUMs to the native-endian integers OSSL_PARAM carries. */
static inline EVP_PKEY *recents_rsa_public_key(
    const unsigned char *modulus, size_t modulusLength, const unsigned char *exponent, size_t exponentLength) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM *params = NULL;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    BIGNUM *n = BN_bin2bn(modulus, (int)modulusLength, NULL);
    BIGNUM *e = BN_bin2bn(exponent, (int)exponentLength, NULL);
    if (builder != NULL && n != NULL && e != NULL
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e) == 1
        && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL) {
        key = recents_public_key_from_params("RSA", params);
    }
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    BN_free(n);
    BN_free(e);
    return key;
}

/* A P-256 public key from an uncompressed SEC1 point (0x04 || x || y), or NULL; OpenSSL refuses
   a point that is not on the curve while decoding it (EC_POINT_oct2point). */
static inline EVP_PKEY *recents_p256_public_key(const unsigned char *point, size_t length) {
    char group[] = "P-256";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, length),
        OSSL_PARAM_construct_end(),
    };
    return recents_public_key_from_params("EC", params);
}

/* The DER ECDSA-Sig-Value of a JOSE ECDSA signature, r || s with `half` bytes each (RFC 7518
   §3.4), written by libcrypto into `output` (room for `capacity` bytes). Returns its length, or 0
   when it does not fit or libcrypto fails. */
static inline size_t recents_ecdsa_der_signature(
    const unsigned char *rs, size_t half, unsigned char *output, size_t capacity) {
    ECDSA_SIG *signature = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(rs, (int)half, NULL);
    BIGNUM *s = BN_bin2bn(rs + half, (int)half, NULL);
    if (signature == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(signature, r, s) != 1) {
        ECDSA_SIG_free(signature);
        BN_free(r);
        BN_free(s);
        return 0;
    }
    /* r and s belong to the signature now. */
    size_t written = 0;
    int length = i2d_ECDSA_SIG(signature, NULL);
    if (length > 0 && (size_t)length <= capacity) {
        unsigned char *cursor = output;
        if (i2d_ECDSA_SIG(signature, &cursor) == length) written = (size_t)length;
    }
    ECDSA_SIG_free(signature);
    return written;
}
#endif
