#ifndef FACEOFF_CCURL_H
#define FACEOFF_CCURL_H

/* libcurl, loaded when Faceoff first makes a request rather than when it starts: libcurl
   and the libraries it brings (TLS, Kerberos, LDAP, SSH, ...) cost a command that never goes
   online, such as `faceoff status` in a tmux status line, several milliseconds and megabytes.
   The types and constants come from curl's own header; every function goes through these
   wrappers. */

#include <stddef.h>
#include <curl/curl.h>

/* Loads libcurl (once) and runs curl_global_init. Returns 0, or -1 with a message. */
int faceoff_curl_load(char *message, size_t size);

CURL *faceoff_curl_easy_init(void);
void faceoff_curl_easy_cleanup(CURL *handle);
CURLcode faceoff_curl_easy_perform(CURL *handle);
struct curl_slist *faceoff_curl_slist_append(struct curl_slist *list, const char *line);
void faceoff_curl_slist_free_all(struct curl_slist *list);

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. */
CURLcode faceoff_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode faceoff_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode faceoff_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode faceoff_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode faceoff_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);

typedef size_t (*faceoff_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);
typedef int (*faceoff_curl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                              curl_off_t ultotal, curl_off_t ulnow);

CURLcode faceoff_curl_setopt_data_callback(CURL *handle, CURLoption option, faceoff_curl_data_callback callback);
CURLcode faceoff_curl_setopt_xferinfo_callback(CURL *handle, faceoff_curl_xferinfo_callback callback);
CURLcode faceoff_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode faceoff_curl_getinfo_string(CURL *handle, CURLINFO info, char **value);

#endif
