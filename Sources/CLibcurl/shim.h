#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   wrapper per kind of argument they take. */
static inline CURLcode fpmod_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode fpmod_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode fpmod_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*fpmod_curl_write_function)(char *data, size_t size, size_t count, void *context);
static inline CURLcode fpmod_curl_setopt_write_function(CURL *handle, fpmod_curl_write_function function) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode fpmod_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
typedef int (*fpmod_curl_progress_function)(void *context, curl_off_t downloadTotal, curl_off_t downloaded,
                                            curl_off_t uploadTotal, curl_off_t uploaded);
static inline CURLcode fpmod_curl_setopt_progress_function(CURL *handle, fpmod_curl_progress_function function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}
static inline CURLcode fpmod_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
