// The part of libfprint 2 and GLib 2 that fpmod's host matcher calls, declared here instead of
// including <fprint.h>.
//
// Why: <fprint.h> needs GLib's include folders, which only pkg-config knows, and glib-2.0.pc's
// Cflags carry -pthread, which SwiftPM rejects with a warning on every build. These functions
// are part of the stable ABIs of libfprint-2.so.2 (1.90 on) and GLib 2.x; the types are the C
// types GLib's typedefs stand for (gboolean = int, guint = unsigned, gsize = size_t, GQuark =
// uint32_t). Objects are opaque; only GError and GPtrArray, whose layout GLib documents, are
// spelled out. tools/check-libfprint-shim.sh compiles these declarations against the real
// headers, so a mismatch is a compile error there.
#pragma once
#include <stddef.h>
#include <stdint.h>

typedef struct _GError { uint32_t domain; int code; char *message; } GError;
typedef struct _GPtrArray { void **pdata; unsigned len; } GPtrArray;
typedef struct _GMainContext GMainContext;
typedef struct _GCancellable GCancellable;
typedef struct _GAsyncResult GAsyncResult;
typedef struct _GObject GObject;
typedef struct _FpContext FpContext;
typedef struct _FpDevice FpDevice;
typedef struct _FpPrint FpPrint;
typedef struct _GVariant GVariant;
typedef struct _GVariantType GVariantType;
typedef struct _GBytes GBytes;
typedef int gboolean;

typedef void (*GAsyncReadyCallback)(GObject *source, GAsyncResult *result, void *user_data);
typedef void (*GDestroyNotify)(void *data);
typedef gboolean (*GSourceFunc)(void *user_data);
typedef void (*GLogFunc)(const char *log_domain, int log_level, const char *message, void *user_data);
typedef void (*FpEnrollProgress)(FpDevice *device, int completed_stages, FpPrint *print, void *user_data, GError *error);
typedef gboolean (*FpMatchCb)(FpDevice *device, FpPrint *match, FpPrint *print, void *user_data, GError *error);

// GLib
enum { FPMOD_G_LOG_LEVEL_DEBUG = 1 << 7 };
void *g_object_ref(void *object);
void g_object_unref(void *object);
void g_free(void *memory);
void g_error_free(GError *error);
GPtrArray *g_ptr_array_new(void);
void g_ptr_array_add(GPtrArray *array, void *data);
void g_ptr_array_unref(GPtrArray *array);
gboolean g_main_context_iteration(GMainContext *context, gboolean may_block);
unsigned g_timeout_add_seconds(unsigned interval, GSourceFunc function, void *data);
gboolean g_source_remove(unsigned tag);
unsigned g_log_set_handler(const char *log_domain, int log_levels, GLogFunc log_func, void *user_data);
GCancellable *g_cancellable_new(void);
void g_cancellable_cancel(GCancellable *cancellable);
// GVariant, to read the minutiae out of a serialized print (MinutiaeReader). A GVariantType is
// its type string (G_VARIANT_TYPE is a cast).
GBytes *g_bytes_new(const void *data, size_t size);
void g_bytes_unref(GBytes *bytes);
GVariant *g_variant_new_from_bytes(const GVariantType *type, GBytes *bytes, gboolean trusted);
GVariant *g_variant_ref_sink(GVariant *value);
void g_variant_unref(GVariant *value);
gboolean g_variant_is_of_type(GVariant *value, const GVariantType *type);
size_t g_variant_n_children(GVariant *value);
GVariant *g_variant_get_child_value(GVariant *value, size_t index);
GVariant *g_variant_get_variant(GVariant *value);
int32_t g_variant_get_int32(GVariant *value);
const void *g_variant_get_fixed_array(GVariant *value, size_t *n_elements, size_t element_size);

// libfprint
FpContext *fp_context_new(void);
GPtrArray *fp_context_get_devices(FpContext *context);
const char *fp_device_get_driver(FpDevice *device);
int fp_device_get_nr_enroll_stages(FpDevice *device);
gboolean fp_device_open_sync(FpDevice *device, GCancellable *cancellable, GError **error);
uint32_t fp_device_retry_quark(void);
uint32_t fp_device_error_quark(void);
enum { FPMOD_FP_DEVICE_ERROR_TOO_HOT = 0x101 };
FpPrint *fp_print_new(FpDevice *device);
gboolean fp_print_serialize(FpPrint *print, unsigned char **data, size_t *length, GError **error);
FpPrint *fp_print_deserialize(const unsigned char *data, size_t length, GError **error);
void fp_device_enroll(FpDevice *device, FpPrint *template_print, GCancellable *cancellable,
                      FpEnrollProgress progress_cb, void *progress_data, GDestroyNotify progress_destroy,
                      GAsyncReadyCallback callback, void *user_data);
FpPrint *fp_device_enroll_finish(FpDevice *device, GAsyncResult *result, GError **error);
void fp_device_verify(FpDevice *device, FpPrint *enrolled_print, GCancellable *cancellable,
                      FpMatchCb match_cb, void *match_data, GDestroyNotify match_destroy,
                      GAsyncReadyCallback callback, void *user_data);
gboolean fp_device_verify_finish(FpDevice *device, GAsyncResult *result, gboolean *match, FpPrint **print, GError **error);
void fp_device_identify(FpDevice *device, GPtrArray *prints, GCancellable *cancellable,
                        FpMatchCb match_cb, void *match_data, GDestroyNotify match_destroy,
                        GAsyncReadyCallback callback, void *user_data);
gboolean fp_device_identify_finish(FpDevice *device, GAsyncResult *result, FpPrint **match, FpPrint **print, GError **error);
