#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/x509.h>

/* Macros in OpenSSL 3 that Swift cannot see. */
static inline long COpenSSL_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
static inline int COpenSSL_EVP_MD_size(const EVP_MD *md) { return EVP_MD_get_size(md); }
static inline int COpenSSL_set_ivlen(EVP_CIPHER_CTX *c, int len) {
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, len, NULL);
}
static inline int COpenSSL_get_tag(EVP_CIPHER_CTX *c, int len, void *tag) {
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, len, tag);
}
static inline int COpenSSL_set_tag(EVP_CIPHER_CTX *c, int len, void *tag) {
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, len, tag);
}
static inline int COpenSSL_set_rsa_keygen_bits(EVP_PKEY_CTX *c, int bits) {
    return EVP_PKEY_CTX_set_rsa_keygen_bits(c, bits);
}
/* RSASSA-PSS as JWS's PS256/384/512 use it (RFC 7518, 3.5): MGF1 with the message's digest, a
   salt as long as that digest. */
static inline int COpenSSL_set_rsa_pss(EVP_PKEY_CTX *c) {
    return EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING) == 1 &&
           EVP_PKEY_CTX_set_rsa_pss_saltlen(c, RSA_PSS_SALTLEN_DIGEST) == 1 ? 1 : 0;
}
static inline int COpenSSL_set_rsa_pkcs1_padding(EVP_PKEY_CTX *c) {
    return EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
}
static const int COpenSSL_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;
/* Parameter names as C strings with static storage: OSSL_PARAM keeps the pointer, so a
   temporary string bridged from Swift would dangle. */
static const char *const COpenSSL_KDF_PARAM_DIGEST = OSSL_KDF_PARAM_DIGEST;
static const char *const COpenSSL_KDF_PARAM_KEY = OSSL_KDF_PARAM_KEY;
static const char *const COpenSSL_KDF_PARAM_SALT = OSSL_KDF_PARAM_SALT;
static const char *const COpenSSL_KDF_PARAM_INFO = OSSL_KDF_PARAM_INFO;
static const char *const COpenSSL_PKEY_PARAM_RSA_N = OSSL_PKEY_PARAM_RSA_N;
static const char *const COpenSSL_PKEY_PARAM_RSA_E = OSSL_PKEY_PARAM_RSA_E;
static const char *const COpenSSL_DIGEST_SHA256 = "SHA256";
static const char *const COpenSSL_PKEY_PARAM_EC_PUB_X = OSSL_PKEY_PARAM_EC_PUB_X;
static const char *const COpenSSL_PKEY_PARAM_EC_PUB_Y = OSSL_PKEY_PARAM_EC_PUB_Y;
static const char *const COpenSSL_PKEY_PARAM_GROUP_NAME = OSSL_PKEY_PARAM_GROUP_NAME;
static const char *const COpenSSL_PKEY_PARAM_PUB_KEY = OSSL_PKEY_PARAM_PUB_KEY;
static const int COpenSSL_EVP_PKEY_ED25519 = EVP_PKEY_ED25519;
static const int COpenSSL_MBSTRING_ASC = MBSTRING_ASC;
#endif
