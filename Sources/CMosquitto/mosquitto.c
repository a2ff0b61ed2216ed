#include "CMosquitto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    int (*lib_init)(void);
    struct mosquitto *(*new_)(const char *, bool, void *);
    void (*destroy)(struct mosquitto *);
    int (*username_pw_set)(struct mosquitto *, const char *, const char *);
    int (*will_set)(struct mosquitto *, const char *, int, const void *, int, bool);
    int (*tls_set)(struct mosquitto *, const char *, const char *, const char *, const char *, int (*)(char *, int, int, void *));
    int (*int_option)(struct mosquitto *, int, int);
    int (*threaded_set)(struct mosquitto *, bool);
    int (*max_inflight_messages_set)(struct mosquitto *, unsigned int);
    int (*connect_async)(struct mosquitto *, const char *, int, int);
    int (*disconnect)(struct mosquitto *);
    int (*publish)(struct mosquitto *, int *, const char *, int, const void *, int, bool);
    int (*subscribe)(struct mosquitto *, int *, const char *, int);
    void (*message_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, const struct mosquitto_message *));
    int (*loop)(struct mosquitto *, int, int);
    void (*connect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*disconnect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*publish_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*log_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int, const char *));
    const char *(*strerror)(int);
    const char *(*connack_string)(int);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL && failure[0] == 0) {
        snprintf(failure, sizeof failure, "libmosquitto.so.1 has no %s", name);
    }
    return found;
}

static void load(void) {
    /* The soname libmosquitto-dev links against (Debian's libmosquitto1). */
    void *library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "cannot load libmosquitto.so.1 (%s)", dlerror());
        return;
    }
    api.lib_init = symbol(library, "mosquitto_lib_init");
    api.new_ = symbol(library, "mosquitto_new");
    api.destroy = symbol(library, "mosquitto_destroy");
    api.username_pw_set = symbol(library, "mosquitto_username_pw_set");
    api.will_set = symbol(library, "mosquitto_will_set");
    api.tls_set = symbol(library, "mosquitto_tls_set");
    api.int_option = symbol(library, "mosquitto_int_option");
    api.threaded_set = symbol(library, "mosquitto_threaded_set");
    api.max_inflight_messages_set = symbol(library, "mosquitto_max_inflight_messages_set");
    api.connect_async = symbol(library, "mosquitto_connect_async");
    api.disconnect = symbol(library, "mosquitto_disconnect");
    api.publish = symbol(library, "mosquitto_publish");
    api.subscribe = symbol(library, "mosquitto_subscribe");
    api.message_callback_set = symbol(library, "mosquitto_message_callback_set");
    api.loop = symbol(library, "mosquitto_loop");
    api.connect_callback_set = symbol(library, "mosquitto_connect_callback_set");
    api.disconnect_callback_set = symbol(library, "mosquitto_disconnect_callback_set");
    api.publish_callback_set = symbol(library, "mosquitto_publish_callback_set");
    api.log_callback_set = symbol(library, "mosquitto_log_callback_set");
    api.strerror = symbol(library, "mosquitto_strerror");
    api.connack_string = symbol(library, "mosquitto_connack_string");
    if (failure[0] != 0) return;
    int code = api.lib_init();
    if (code != MOSQ_ERR_SUCCESS) snprintf(failure, sizeof failure, "mosquitto_lib_init failed (%d)", code);
}

int faceoff_mosquitto_load(char *message, size_t size) {
    pthread_once(&once, load);
    if (failure[0] == 0) return 0;
    if (message != NULL && size > 0) snprintf(message, size, "%s", failure);
    return -1;
}

/* Callers load first (MQTTConnection does); these are only reached after a successful load. */
struct mosquitto *faceoff_mosquitto_new(const char *client_id, bool clean_session, void *userdata) {
    return api.new_(client_id, clean_session, userdata);
}
void faceoff_mosquitto_destroy(struct mosquitto *handle) { api.destroy(handle); }
int faceoff_mosquitto_username_pw_set(struct mosquitto *handle, const char *username, const char *password) {
    return api.username_pw_set(handle, username, password);
}
int faceoff_mosquitto_will_set(struct mosquitto *handle, const char *topic, int length, const void *payload, int qos, bool retain) {
    return api.will_set(handle, topic, length, payload, qos, retain);
}
int faceoff_mosquitto_tls_set(struct mosquitto *handle, const char *ca_file, const char *ca_path) {
    return api.tls_set(handle, ca_file, ca_path, NULL, NULL, NULL);
}
int faceoff_mosquitto_int_option(struct mosquitto *handle, int option, int value) { return api.int_option(handle, option, value); }
int faceoff_mosquitto_max_inflight_messages_set(struct mosquitto *handle, unsigned int max) {
    return api.max_inflight_messages_set(handle, max);
}
int faceoff_mosquitto_threaded_set(struct mosquitto *handle, bool threaded) { return api.threaded_set(handle, threaded); }
int faceoff_mosquitto_connect_async(struct mosquitto *handle, const char *host, int port, int keepalive) {
    return api.connect_async(handle, host, port, keepalive);
}
int faceoff_mosquitto_disconnect(struct mosquitto *handle) { return api.disconnect(handle); }
int faceoff_mosquitto_publish(struct mosquitto *handle, int *mid, const char *topic, int length, const void *payload, int qos, bool retain) {
    return api.publish(handle, mid, topic, length, payload, qos, retain);
}
int faceoff_mosquitto_subscribe(struct mosquitto *handle, int *mid, const char *pattern, int qos) {
    return api.subscribe(handle, mid, pattern, qos);
}
static faceoff_mosquitto_message_callback message_callback;
static void on_message(struct mosquitto *handle, void *userdata, const struct mosquitto_message *message) {
    faceoff_mosquitto_message_callback callback = __atomic_load_n(&message_callback, __ATOMIC_ACQUIRE);
    /* A command is what someone says now: a retained one (published with -r) would say it
       again at every connect. */
    if (callback != NULL && message != NULL && !message->retain) callback(handle, userdata, message->topic, message->payload, message->payloadlen);
}
void faceoff_mosquitto_message_callback_set(struct mosquitto *handle, faceoff_mosquitto_message_callback callback) {
    __atomic_store_n(&message_callback, callback, __ATOMIC_RELEASE);
    api.message_callback_set(handle, on_message);
}
int faceoff_mosquitto_loop(struct mosquitto *handle, int timeout, int max_packets) { return api.loop(handle, timeout, max_packets); }
void faceoff_mosquitto_connect_callback_set(struct mosquitto *handle, faceoff_mosquitto_code_callback callback) {
    api.connect_callback_set(handle, callback);
}
void faceoff_mosquitto_disconnect_callback_set(struct mosquitto *handle, faceoff_mosquitto_code_callback callback) {
    api.disconnect_callback_set(handle, callback);
}
void faceoff_mosquitto_publish_callback_set(struct mosquitto *handle, faceoff_mosquitto_code_callback callback) {
    api.publish_callback_set(handle, callback);
}
void faceoff_mosquitto_log_callback_set(struct mosquitto *handle, faceoff_mosquitto_log_callback callback) {
    api.log_callback_set(handle, callback);
}
const char *faceoff_mosquitto_strerror(int code) { return api.strerror(code); }
const char *faceoff_mosquitto_connack_string(int code) { return api.connack_string(code); }
