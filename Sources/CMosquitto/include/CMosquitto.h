#ifndef FACEOFF_CMOSQUITTO_H
#define FACEOFF_CMOSQUITTO_H

/* libmosquitto, the Eclipse Mosquitto project's MQTT client library, loaded when an MQTT sink
   is first used rather than when Faceoff starts (as libcurl is: see Sources/CCurl/curl.c), so
   a command without an MQTT sink never pays for it, and a machine without libmosquitto1 runs
   every other command. The types and constants come from the library's own header
   (libmosquitto-dev); every function goes through these wrappers. */

#include <stdbool.h>
#include <stddef.h>
#include <mosquitto.h>

/* Loads libmosquitto (once) and runs mosquitto_lib_init. Returns 0, or -1 with a message. */
int faceoff_mosquitto_load(char *message, size_t size);

typedef void (*faceoff_mosquitto_code_callback)(struct mosquitto *handle, void *userdata, int code);
typedef void (*faceoff_mosquitto_log_callback)(struct mosquitto *handle, void *userdata, int level, const char *text);
/* A message on a subscribed topic: its topic and payload, valid only during the call. */
typedef void (*faceoff_mosquitto_message_callback)(struct mosquitto *handle, void *userdata, const char *topic, const void *payload,
                                                   int length);

struct mosquitto *faceoff_mosquitto_new(const char *client_id, bool clean_session, void *userdata);
void faceoff_mosquitto_destroy(struct mosquitto *handle);
int faceoff_mosquitto_username_pw_set(struct mosquitto *handle, const char *username, const char *password);
int faceoff_mosquitto_will_set(struct mosquitto *handle, const char *topic, int length, const void *payload, int qos, bool retain);
int faceoff_mosquitto_tls_set(struct mosquitto *handle, const char *ca_file, const char *ca_path);
int faceoff_mosquitto_int_option(struct mosquitto *handle, int option, int value);
int faceoff_mosquitto_max_inflight_messages_set(struct mosquitto *handle, unsigned int max);
int faceoff_mosquitto_threaded_set(struct mosquitto *handle, bool threaded);
int faceoff_mosquitto_connect_async(struct mosquitto *handle, const char *host, int port, int keepalive);
int faceoff_mosquitto_disconnect(struct mosquitto *handle);
int faceoff_mosquitto_publish(struct mosquitto *handle, int *mid, const char *topic, int length, const void *payload, int qos, bool retain);
int faceoff_mosquitto_subscribe(struct mosquitto *handle, int *mid, const char *pattern, int qos);
int faceoff_mosquitto_loop(struct mosquitto *handle, int timeout, int max_packets);
void faceoff_mosquitto_connect_callback_set(struct mosquitto *handle, faceoff_mosquitto_code_callback callback);
void faceoff_mosquitto_disconnect_callback_set(struct mosquitto *handle, faceoff_mosquitto_code_callback callback);
void faceoff_mosquitto_publish_callback_set(struct mosquitto *handle, faceoff_mosquitto_code_callback callback);
void faceoff_mosquitto_log_callback_set(struct mosquitto *handle, faceoff_mosquitto_log_callback callback);
/* One callback for every handle (the caller finds its connection by the handle). */
void faceoff_mosquitto_message_callback_set(struct mosquitto *handle, faceoff_mosquitto_message_callback callback);
const char *faceoff_mosquitto_strerror(int code);
const char *faceoff_mosquitto_connack_string(int code);

#endif
