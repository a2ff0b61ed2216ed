#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL && failure[0] == 0) {
        snprintf(failure, sizeof failure, "libcurl.so.4 has no %s", name);
    }
    return found;
}

static void load(void) {
    /* The soname the -dev package links against: libcurl4 (OpenSSL) on Debian. */
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "cannot load libcurl.so.4 (%s)", dlerror());
        return;
    }
    api.global_init = (CURLcode (*)(long))symbol(library, "curl_global_init");
    api.easy_init = (CURL * (*)(void)) symbol(library, "curl_easy_init");
    api.easy_cleanup = (void (*)(CURL *))symbol(library, "curl_easy_cleanup");
    api.easy_perform = (CURLcode (*)(CURL *))symbol(library, "curl_easy_perform");
    api.easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))symbol(library, "curl_easy_setopt");
    api.easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))symbol(library, "curl_easy_getinfo");
    api.slist_append = (struct curl_slist * (*)(struct curl_slist *, const char *)) symbol(library, "curl_slist_append");
    api.slist_free_all = (void (*)(struct curl_slist *))symbol(library, "curl_slist_free_all");
    if (failure[0] != 0) return;
    CURLcode code = api.global_init(CURL_GLOBAL_ALL);
    if (code != CURLE_OK) snprintf(failure, sizeof failure, "curl_global_init failed (%d)", (int)code);
}

int faceoff_curl_load(char *message, size_t size) {
    pthread_once(&once, load);
    if (failure[0] == 0) return 0;
    if (message != NULL && size > 0) snprintf(message, size, "%s", failure);
    return -1;
}

/* Callers load first (CurlHTTPClient does); these are only reached after a successful load. */
CURL *faceoff_curl_easy_init(void) { return api.easy_init(); }
void faceoff_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode faceoff_curl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
struct curl_slist *faceoff_curl_slist_append(struct curl_slist *list, const char *line) { return api.slist_append(list, line); }
void faceoff_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode faceoff_curl_setopt_long(CURL *handle, CURLoption option, long value) { return api.easy_setopt(handle, option, value); }
CURLcode faceoff_curl_setopt_string(CURL *handle, CURLoption option, const char *value) { return api.easy_setopt(handle, option, value); }
CURLcode faceoff_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return api.easy_setopt(handle, option, value); }
CURLcode faceoff_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) { return api.easy_setopt(handle, option, value); }
CURLcode faceoff_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) { return api.easy_setopt(handle, option, value); }
CURLcode faceoff_curl_setopt_data_callback(CURL *handle, CURLoption option, faceoff_curl_data_callback callback) {
    return api.easy_setopt(handle, option, callback);
}
CURLcode faceoff_curl_setopt_xferinfo_callback(CURL *handle, faceoff_curl_xferinfo_callback callback) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
CURLcode faceoff_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return api.easy_getinfo(handle, info, value); }
CURLcode faceoff_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) { return api.easy_getinfo(handle, info, value); }
