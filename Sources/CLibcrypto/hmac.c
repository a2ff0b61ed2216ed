#include "CLibcrypto.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>

/*
 * Webhook signatures need one function of OpenSSL's libcrypto. It is loaded when the first
 * signature is made, as libcurl is on the first request: libcurl (OpenSSL flavour) depends on
 * the same libcrypto.so.3, so it is on every machine that can send a webhook, and commands
 * that never sign don't pay for loading it. The two prototypes are OpenSSL 3's.
 */
typedef const void *(*evp_md_function)(void);
typedef unsigned char *(*hmac_function)(const void *md, const void *key, int key_length, const unsigned char *data,
                                        size_t data_length, unsigned char *digest, unsigned int *digest_length);

static evp_md_function evp_sha256;
static hmac_function hmac;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256];

static void load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "cannot load libcrypto.so.3 (%s)", dlerror());
        return;
    }
    evp_sha256 = (evp_md_function)dlsym(library, "EVP_sha256");
    hmac = (hmac_function)dlsym(library, "HMAC");
    if (evp_sha256 == NULL || hmac == NULL) snprintf(failure, sizeof failure, "libcrypto.so.3 has no HMAC or EVP_sha256");
}

int faceoff_hmac_sha256(const void *key, size_t key_length, const unsigned char *data, size_t data_length,
                        unsigned char digest[32], char *message, size_t size) {
    pthread_once(&once, load);
    const char *problem = failure;
    unsigned int length = 0;
    if (problem[0] == 0) {
        if (key_length > INT_MAX) {
            problem = "the key is too long";
        } else if (hmac(evp_sha256(), key, (int)key_length, data, data_length, digest, &length) == NULL || length != 32) {
            problem = "HMAC-SHA256 failed";
        }
    }
    if (problem[0] == 0) return 0;
    if (message != NULL && size > 0) snprintf(message, size, "%s", problem);
    return -1;
}
