// The trampolines of include/on_demand.h: each function the callers use, defined here under
// its library's name, so that the Swift code calls it as the library's own header declares it;
// the body calls the library's definition, found with dlsym once the library is loaded. A
// caller calls ig_library_load first, so no trampoline runs for a library that is missing.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <archive.h>
#include <archive_entry.h>
#include <avif/avif.h>
#include <gif_lib.h>
#include <lcms2.h>
#include <libheif/heif.h>
#include <string.h>
// SHA256_Update is deprecated in OpenSSL 3 in favour of EVP, whose context is opaque and
// allocated; the low-level call takes the plain state we keep, and runs the same block code.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "on_demand.h"

// Each library's functions: X(return type, name, parameters, arguments), V(name, parameters,
// arguments) for those that return nothing.
#define WEBP_FUNCTIONS(X, V) \
    X(int, WebPInitDecoderConfigInternal, (WebPDecoderConfig *config, int version), (config, version)) \
    X(VP8StatusCode, WebPDecode, (const uint8_t *data, size_t size, WebPDecoderConfig *config), (data, size, config)) \
    V(WebPFreeDecBuffer, (WebPDecBuffer *buffer), (buffer))
#define WEBP_DEMUX_FUNCTIONS(X, V) \
    X(int, WebPAnimDecoderOptionsInitInternal, (WebPAnimDecoderOptions *options, int version), (options, version)) \
    X(WebPAnimDecoder *, WebPAnimDecoderNewInternal, \
      (const WebPData *data, const WebPAnimDecoderOptions *options, int version), (data, options, version)) \
    X(int, WebPAnimDecoderGetInfo, (const WebPAnimDecoder *decoder, WebPAnimInfo *info), (decoder, info)) \
    X(int, WebPAnimDecoderGetNext, (WebPAnimDecoder *decoder, uint8_t **buffer, int *timestamp), (decoder, buffer, timestamp)) \
    V(WebPAnimDecoderDelete, (WebPAnimDecoder *decoder), (decoder))
#define GIF_FUNCTIONS(X, V) \
    X(GifFileType *, DGifOpen, (void *user, InputFunc read, int *error), (user, read, error)) \
    X(int, DGifCloseFile, (GifFileType *file, int *error), (file, error)) \
    X(int, DGifGetRecordType, (GifFileType *file, GifRecordType *type), (file, type)) \
    X(int, DGifGetImageDesc, (GifFileType *file), (file)) \
    X(int, DGifGetExtension, (GifFileType *file, int *code, GifByteType **extension), (file, code, extension)) \
    X(int, DGifGetExtensionNext, (GifFileType *file, GifByteType **extension), (file, extension)) \
    X(const char *, GifErrorString, (int error), (error))
#define AVIF_FUNCTIONS(X, V) \
    X(avifDecoder *, avifDecoderCreate, (void), ()) \
    V(avifDecoderDestroy, (avifDecoder *decoder), (decoder)) \
    X(avifResult, avifDecoderSetIOMemory, (avifDecoder *decoder, const uint8_t *data, size_t size), (decoder, data, size)) \
    X(avifResult, avifDecoderParse, (avifDecoder *decoder), (decoder)) \
    X(avifResult, avifDecoderNextImage, (avifDecoder *decoder), (decoder)) \
    V(avifRGBImageSetDefaults, (avifRGBImage *rgb, const avifImage *image), (rgb, image)) \
    V(avifGetPixelFormatInfo, (avifPixelFormat format, avifPixelFormatInfo *info), (format, info)) \
    X(avifResult, avifImageYUVToRGB, (const avifImage *image, avifRGBImage *rgb), (image, rgb)) \
    X(const char *, avifResultToString, (avifResult result), (result))
#define HEIF_FUNCTIONS(X, V) \
    X(struct heif_context *, heif_context_alloc, (void), ()) \
    V(heif_context_free, (struct heif_context *context), (context)) \
    V(heif_context_set_maximum_image_size_limit, (struct heif_context *context, int side), (context, side)) \
    V(heif_context_set_max_decoding_threads, (struct heif_context *context, int threads), (context, threads)) \
    X(struct heif_error, heif_context_read_from_memory_without_copy, \
      (struct heif_context *context, const void *bytes, size_t size, const struct heif_reading_options *options), \
      (context, bytes, size, options)) \
    X(struct heif_error, heif_context_get_primary_image_handle, \
      (struct heif_context *context, struct heif_image_handle **handle), (context, handle)) \
    V(heif_image_handle_release, (const struct heif_image_handle *handle), (handle)) \
    X(struct heif_decoding_options *, heif_decoding_options_alloc, (void), ()) \
    V(heif_decoding_options_free, (struct heif_decoding_options *options), (options)) \
    X(struct heif_error, heif_decode_image, \
      (const struct heif_image_handle *handle, struct heif_image **image, enum heif_colorspace colorspace, \
       enum heif_chroma chroma, const struct heif_decoding_options *options), \
      (handle, image, colorspace, chroma, options)) \
    X(int, heif_image_get_width, (const struct heif_image *image, enum heif_channel channel), (image, channel)) \
    X(int, heif_image_get_height, (const struct heif_image *image, enum heif_channel channel), (image, channel)) \
    X(const uint8_t *, heif_image_get_plane_readonly, \
      (const struct heif_image *image, enum heif_channel channel, int *stride), (image, channel, stride)) \
    V(heif_image_release, (const struct heif_image *image), (image)) \
    X(enum heif_colorspace, heif_image_get_colorspace, (const struct heif_image *image), (image)) \
    X(int, heif_image_has_channel, (const struct heif_image *image, enum heif_channel channel), (image, channel)) \
    X(int, heif_image_get_bits_per_pixel_range, (const struct heif_image *image, enum heif_channel channel), \
      (image, channel))
#define ARCHIVE_FUNCTIONS(X, V) \
    X(struct archive *, archive_read_new, (void), ()) \
    X(int, archive_read_free, (struct archive *archive), (archive)) \
    X(int, archive_read_support_filter_none, (struct archive *archive), (archive)) \
    X(int, archive_read_support_filter_gzip, (struct archive *archive), (archive)) \
    X(int, archive_read_support_filter_bzip2, (struct archive *archive), (archive)) \
    X(int, archive_read_support_filter_xz, (struct archive *archive), (archive)) \
    X(int, archive_read_support_filter_lzma, (struct archive *archive), (archive)) \
    X(int, archive_read_support_filter_zstd, (struct archive *archive), (archive)) \
    X(int, archive_read_support_format_zip, (struct archive *archive), (archive)) \
    X(int, archive_read_support_format_tar, (struct archive *archive), (archive)) \
    X(int, archive_read_support_format_gnutar, (struct archive *archive), (archive)) \
    X(int, archive_read_support_format_7zip, (struct archive *archive), (archive)) \
    X(int, archive_read_support_format_rar, (struct archive *archive), (archive)) \
    X(int, archive_read_support_format_rar5, (struct archive *archive), (archive)) \
    X(int, archive_read_open_filename, (struct archive *archive, const char *name, size_t block), (archive, name, block)) \
    X(int, archive_read_next_header, (struct archive *archive, struct archive_entry **entry), (archive, entry)) \
    X(la_ssize_t, archive_read_data, (struct archive *archive, void *buffer, size_t size), (archive, buffer, size)) \
    X(const char *, archive_error_string, (struct archive *archive), (archive)) \
    X(la_int64_t, archive_filter_bytes, (struct archive *archive, int filter), (archive, filter)) \
    X(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *entry), (entry)) \
    X(const char *, archive_entry_hardlink, (struct archive_entry *entry), (entry)) \
    X(int, archive_entry_is_encrypted, (struct archive_entry *entry), (entry)) \
    X(time_t, archive_entry_mtime, (struct archive_entry *entry), (entry)) \
    X(int, archive_entry_mtime_is_set, (struct archive_entry *entry), (entry)) \
    X(const char *, archive_entry_pathname, (struct archive_entry *entry), (entry)) \
    X(const char *, archive_entry_pathname_utf8, (struct archive_entry *entry), (entry)) \
    X(la_int64_t, archive_entry_size, (struct archive_entry *entry), (entry)) \
    X(int, archive_entry_size_is_set, (struct archive_entry *entry), (entry))

#define LCMS2_FUNCTIONS(X, V) \
    X(cmsHPROFILE, cmsOpenProfileFromMem, (const void *bytes, cmsUInt32Number size), (bytes, size)) \
    X(cmsBool, cmsCloseProfile, (cmsHPROFILE profile), (profile)) \
    X(cmsHPROFILE, cmsCreate_sRGBProfile, (void), ()) \
    X(cmsHPROFILE, cmsCreateRGBProfile, \
      (const cmsCIExyY *white, const cmsCIExyYTRIPLE *primaries, cmsToneCurve *const curves[3]), (white, primaries, curves)) \
    X(cmsToneCurve *, cmsBuildParametricToneCurve, (cmsContext context, cmsInt32Number type, const cmsFloat64Number parameters[]), \
      (context, type, parameters)) \
    V(cmsFreeToneCurve, (cmsToneCurve *curve), (curve)) \
    X(cmsFloat32Number, cmsEvalToneCurveFloat, (const cmsToneCurve *curve, cmsFloat32Number value), (curve, value)) \
    X(cmsColorSpaceSignature, cmsGetColorSpace, (cmsHPROFILE profile), (profile)) \
    X(cmsBool, cmsIsMatrixShaper, (cmsHPROFILE profile), (profile)) \
    X(void *, cmsReadTag, (cmsHPROFILE profile, cmsTagSignature signature), (profile, signature)) \
    X(cmsHTRANSFORM, cmsCreateTransform, \
      (cmsHPROFILE input, cmsUInt32Number inputFormat, cmsHPROFILE output, cmsUInt32Number outputFormat, \
       cmsUInt32Number intent, cmsUInt32Number flags), (input, inputFormat, output, outputFormat, intent, flags)) \
    V(cmsDeleteTransform, (cmsHTRANSFORM transform), (transform)) \
    V(cmsDoTransform, (cmsHTRANSFORM transform, const void *input, void *output, cmsUInt32Number pixels), \
      (transform, input, output, pixels)) \
    V(cmsSetLogErrorHandler, (cmsLogErrorHandlerFunction handler), (handler))
#define CRYPTO_FUNCTIONS(X, V) \
    X(int, SHA256_Update, (SHA256_CTX *context, const void *data, size_t length), (context, data, length))

#define POINTER(type, name, parameters, arguments) static type(*real_##name) parameters;
#define VOID_POINTER(name, parameters, arguments) static void(*real_##name) parameters;
#define TRAMPOLINE(type, name, parameters, arguments) \
    type name parameters { return real_##name arguments; }
#define VOID_TRAMPOLINE(name, parameters, arguments) \
    void name parameters { real_##name arguments; }
// libarchive's trampolines load it themselves: a program that also links libarchive (the test
// bundle, whose own tests call it) reaches them through its calls and libarchive's internal ones.
#define LOADING_TRAMPOLINE(type, name, parameters, arguments) \
    type name parameters { ig_library_load(IG_LIBRARY_ARCHIVE, NULL); return real_##name arguments; }
#define RESOLVE(type, name, parameters, arguments) \
    if (missing == NULL && (real_##name = (type(*) parameters)dlsym(handle, #name)) == NULL) missing = #name;
#define VOID_RESOLVE(name, parameters, arguments) \
    if (missing == NULL && (real_##name = (void(*) parameters)dlsym(handle, #name)) == NULL) missing = #name;

WEBP_FUNCTIONS(POINTER, VOID_POINTER)
WEBP_DEMUX_FUNCTIONS(POINTER, VOID_POINTER)
GIF_FUNCTIONS(POINTER, VOID_POINTER)
AVIF_FUNCTIONS(POINTER, VOID_POINTER)
HEIF_FUNCTIONS(POINTER, VOID_POINTER)
ARCHIVE_FUNCTIONS(POINTER, VOID_POINTER)
LCMS2_FUNCTIONS(POINTER, VOID_POINTER)
CRYPTO_FUNCTIONS(POINTER, VOID_POINTER)

WEBP_FUNCTIONS(TRAMPOLINE, VOID_TRAMPOLINE)
WEBP_DEMUX_FUNCTIONS(TRAMPOLINE, VOID_TRAMPOLINE)
GIF_FUNCTIONS(TRAMPOLINE, VOID_TRAMPOLINE)
AVIF_FUNCTIONS(TRAMPOLINE, VOID_TRAMPOLINE)
HEIF_FUNCTIONS(TRAMPOLINE, VOID_TRAMPOLINE)
ARCHIVE_FUNCTIONS(LOADING_TRAMPOLINE, VOID_TRAMPOLINE)
LCMS2_FUNCTIONS(TRAMPOLINE, VOID_TRAMPOLINE)

struct library {
    pthread_once_t once;
    int loaded;
    char reason[256];
};

static struct library libraries[7] = {
    {PTHREAD_ONCE_INIT, 0, ""}, {PTHREAD_ONCE_INIT, 0, ""}, {PTHREAD_ONCE_INIT, 0, ""}, {PTHREAD_ONCE_INIT, 0, ""},
    {PTHREAD_ONCE_INIT, 0, ""}, {PTHREAD_ONCE_INIT, 0, ""}, {PTHREAD_ONCE_INIT, 0, ""},
};

/// Opens `soname` (its Debian 12 package named in the reason when it is missing); NULL on failure.
static void *open_library(struct library *library, const char *soname, const char *package) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        snprintf(library->reason, sizeof library->reason, "%s cannot be loaded (install the Debian package %s): %s",
                 soname, package, error ? error : "unknown error");
    }
    return handle;
}

static void settle(struct library *library, const char *soname, const char *missing) {
    if (missing != NULL) {
        snprintf(library->reason, sizeof library->reason, "%s has no function %s", soname, missing);
    } else {
        library->loaded = 1;
    }
}

static void load_webp(void) {
    struct library *library = &libraries[IG_LIBRARY_WEBP];
    const char *missing = NULL;
    void *handle = open_library(library, "libwebp.so.7", "libwebp7");
    if (handle == NULL) return;
    WEBP_FUNCTIONS(RESOLVE, VOID_RESOLVE)
    if (missing != NULL) {
        settle(library, "libwebp.so.7", missing);
        return;
    }
    handle = open_library(library, "libwebpdemux.so.2", "libwebpdemux2");
    if (handle == NULL) return;
    WEBP_DEMUX_FUNCTIONS(RESOLVE, VOID_RESOLVE)
    settle(library, "libwebpdemux.so.2", missing);
}

// The loader of a library of one file: open it, resolve every function its callers use, and
// once every one is found, hand the handle to `then` (NULL for none).
#define ONE_FILE_LOADER(function, which, soname, package, FUNCTIONS, then) \
    static void function(void) { \
        struct library *library = &libraries[which]; \
        const char *missing = NULL; \
        void *handle = open_library(library, soname, package); \
        if (handle == NULL) return; \
        FUNCTIONS(RESOLVE, VOID_RESOLVE) \
        settle(library, soname, missing); \
        void (*const next)(void *) = then; \
        if (library->loaded && next != NULL) next(handle); \
    }

// Our HEVC decoder (hevc_decoder.c) is registered with libheif as it loads. Should that fail (a
// libde265 without a function it calls), libheif's own decoder decodes, on one thread.
static void register_hevc_decoder(void *heif) { (void)ig_hevc_decoder_register(heif); }

ONE_FILE_LOADER(load_gif, IG_LIBRARY_GIF, "libgif.so.7", "libgif7", GIF_FUNCTIONS, NULL)
ONE_FILE_LOADER(load_avif, IG_LIBRARY_AVIF, "libavif.so.15", "libavif15", AVIF_FUNCTIONS, NULL)
ONE_FILE_LOADER(load_heif, IG_LIBRARY_HEIF, "libheif.so.1", "libheif1", HEIF_FUNCTIONS, register_hevc_decoder)
ONE_FILE_LOADER(load_archive, IG_LIBRARY_ARCHIVE, "libarchive.so.13", "libarchive13", ARCHIVE_FUNCTIONS, NULL)
ONE_FILE_LOADER(load_lcms2, IG_LIBRARY_LCMS2, "liblcms2.so.2", "liblcms2-2", LCMS2_FUNCTIONS, NULL)
ONE_FILE_LOADER(load_crypto, IG_LIBRARY_CRYPTO, "libcrypto.so.3", "libssl3", CRYPTO_FUNCTIONS, NULL)

void ig_crypto_sha256_blocks(uint32_t state[8], const unsigned char *data, size_t blocks) {
    // With nothing pending and whole blocks given, SHA256_Update runs its block code straight
    // over `data` and leaves nothing behind: only the chaining state matters, and the length
    // and padding stay ours (CGalleryChecksum's final).
    SHA256_CTX context;
    memset(&context, 0, sizeof context);
    memcpy(context.h, state, sizeof context.h);
    context.md_len = SHA256_DIGEST_LENGTH;
    real_SHA256_Update(&context, data, blocks * 64);
    memcpy(state, context.h, sizeof context.h);
}

int ig_library_load(enum ig_library which, const char **reason) {
    static void (*const loaders[7])(void) = {load_webp, load_gif, load_avif, load_heif, load_archive, load_lcms2,
                                             load_crypto};
    if ((unsigned)which > IG_LIBRARY_CRYPTO) return 0;
    struct library *library = &libraries[which];
    pthread_once(&library->once, loaders[which]);
    if (reason != NULL) *reason = library->reason;
    return library->loaded;
}
