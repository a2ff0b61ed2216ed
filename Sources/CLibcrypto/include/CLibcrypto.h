#ifndef FACEOFF_CLIBCRYPTO_H
#define FACEOFF_CLIBCRYPTO_H

#include <stddef.h>

/// HMAC-SHA256 of `data` under `key` into `digest` (32 bytes), by OpenSSL's libcrypto
/// (libcrypto.so.3, loaded on first use). 0 on success; -1 with a reason in `message`.
int faceoff_hmac_sha256(const void *key, size_t key_length, const unsigned char *data, size_t data_length,
                        unsigned char digest[32], char *message, size_t size);

#endif
