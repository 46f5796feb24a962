// libheif's HEVC decoder plugin, ours: libde265 with two worker threads. libheif 1.15's own
// plugin starts one (`de265_start_worker_threads(context, 1)`) and has no setting for more,
// so a HEIC's pictures were decoded on one core while the other waited (RESULTS ac.4.1: 70 %
// of a 24 MP HEIC's thumbnail in libde265 on that one thread). With two, libde265 decodes a
// picture's wavefront rows and filters side by side. Registered with a priority above
// libheif's own, so libheif hands every HEVC item to it; the pictures it gives libheif are
// the planes libde265 decoded, with the colour description of its VUI, as libheif's own gives.
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#include "on_demand.h"

// A fixed count, as for the PNG's deflate helpers: the confined thumbnailer may not read the
// files that tell the processors.
enum { worker_threads = 2, priority = 200 };

#define DE265_FUNCTIONS(X) \
    X(de265_decoder_context *, de265_new_decoder, (void)) \
    X(de265_error, de265_start_worker_threads, (de265_decoder_context *, int)) \
    X(de265_error, de265_free_decoder, (de265_decoder_context *)) \
    X(de265_error, de265_push_NAL, (de265_decoder_context *, const void *, int, de265_PTS, void *)) \
    X(de265_error, de265_flush_data, (de265_decoder_context *)) \
    X(de265_error, de265_decode, (de265_decoder_context *, int *)) \
    X(const struct de265_image *, de265_get_next_picture, (de265_decoder_context *)) \
    X(void, de265_release_next_picture, (de265_decoder_context *)) \
    X(const char *, de265_get_error_text, (de265_error)) \
    X(int, de265_get_image_width, (const struct de265_image *, int)) \
    X(int, de265_get_image_height, (const struct de265_image *, int)) \
    X(enum de265_chroma, de265_get_chroma_format, (const struct de265_image *)) \
    X(int, de265_get_bits_per_pixel, (const struct de265_image *, int)) \
    X(const uint8_t *, de265_get_image_plane, (const struct de265_image *, int, int *)) \
    X(int, de265_get_image_full_range_flag, (const struct de265_image *)) \
    X(int, de265_get_image_colour_primaries, (const struct de265_image *)) \
    X(int, de265_get_image_transfer_characteristics, (const struct de265_image *)) \
    X(int, de265_get_image_matrix_coefficients, (const struct de265_image *))
// libheif's calls the plugin needs, beside those on_demand.c forwards for the Swift code.
#define HEIF_PLUGIN_FUNCTIONS(X) \
    X(struct heif_error, heif_init, (struct heif_init_params *)) \
    X(struct heif_error, heif_register_decoder_plugin, (const struct heif_decoder_plugin *)) \
    X(struct heif_error, heif_image_create, (int, int, enum heif_colorspace, enum heif_chroma, struct heif_image **)) \
    X(struct heif_error, heif_image_add_plane, (struct heif_image *, enum heif_channel, int, int, int)) \
    X(uint8_t *, heif_image_get_plane, (struct heif_image *, enum heif_channel, int *)) \
    X(void, heif_image_release, (const struct heif_image *)) \
    X(struct heif_color_profile_nclx *, heif_nclx_color_profile_alloc, (void)) \
    X(void, heif_nclx_color_profile_free, (struct heif_color_profile_nclx *)) \
    X(struct heif_error, heif_nclx_color_profile_set_color_primaries, (struct heif_color_profile_nclx *, uint16_t)) \
    X(struct heif_error, heif_nclx_color_profile_set_transfer_characteristics, (struct heif_color_profile_nclx *, uint16_t)) \
    X(struct heif_error, heif_nclx_color_profile_set_matrix_coefficients, (struct heif_color_profile_nclx *, uint16_t)) \
    X(struct heif_error, heif_image_set_nclx_color_profile, (struct heif_image *, const struct heif_color_profile_nclx *))

// The libraries' functions under names of our own: a trampoline named as libde265's would be
// reached by libheif's calls into libde265 too.
#define MEMBER(type, name, parameters) type(*name) parameters;
static struct {
    DE265_FUNCTIONS(MEMBER)
    HEIF_PLUGIN_FUNCTIONS(MEMBER)
} call;

static unsigned long pictures_given, pictures_given_without_workers;

// The most chroma (chroma_format_idc) and bits a picture decoded on this thread may have: what
// the caller admitted the decode's memory for. -1: any.
static _Thread_local int expected_chroma = -1, expected_bits = -1;

void ig_hevc_decoder_expect(int chroma, int bits) {
    expected_chroma = chroma;
    expected_bits = bits;
}

// The worker threads of a decoder started on this thread: -1 for `worker_threads`, 0 for none
// (libde265 then decodes on the thread that calls it). A caller that decodes two pictures at
// once (a grid's tiles) asks for none, so the cores are not asked for four threads' work.
static _Thread_local int threads_here = -1;

void ig_hevc_decoder_threads(int count) { threads_here = count; }

struct hevc_decoder {
    de265_decoder_context *context;
    int strict;
    int workers;
};

static struct heif_error failure(enum heif_error_code code, enum heif_suberror_code subcode, const char *message) {
    struct heif_error error = {code, subcode, message};
    return error;
}

static struct heif_error success(void) { return failure(heif_error_Ok, heif_suberror_Unspecified, "Success"); }

static const char *plugin_name(void) { return "imagegallery: libde265 on two worker threads"; }

static int supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? priority : 0; }

static struct heif_error new_decoder(void **out) {
    static struct hevc_decoder none;
    struct hevc_decoder *decoder = malloc(sizeof *decoder);
    if (decoder == NULL) return failure(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "no memory for a decoder");
    *decoder = none;
    decoder->context = call.de265_new_decoder();
    if (decoder->context == NULL) {
        free(decoder);
        return failure(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "libde265 could not start");
    }
    decoder->workers = threads_here >= 0 ? threads_here : worker_threads;
    de265_error started = decoder->workers == 0 ? DE265_OK : call.de265_start_worker_threads(decoder->context, decoder->workers);
    if (started != DE265_OK) {
        call.de265_free_decoder(decoder->context);
        free(decoder);
        return failure(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, call.de265_get_error_text(started));
    }
    *out = decoder;
    return success();
}

static void free_decoder(void *raw) {
    struct hevc_decoder *decoder = raw;
    call.de265_free_decoder(decoder->context);
    free(decoder);
}

static void set_strict(void *raw, int strict) { ((struct hevc_decoder *)raw)->strict = strict; }

// libheif hands the item's NAL units each after a four-byte big-endian length (hvcC's
// parameter sets first, then the picture's).
static struct heif_error push_data(void *raw, const void *data, size_t size) {
    struct hevc_decoder *decoder = raw;
    const uint8_t *bytes = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return failure(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "a NAL unit's length is cut short");
        uint32_t length = (uint32_t)bytes[at] << 24 | (uint32_t)bytes[at + 1] << 16 | (uint32_t)bytes[at + 2] << 8 | bytes[at + 3];
        at += 4;
        if (length > size - at || length > INT32_MAX) {
            return failure(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "a NAL unit runs past the item's data");
        }
        de265_error pushed = call.de265_push_NAL(decoder->context, bytes + at, (int)length, 0, NULL);
        if (pushed != DE265_OK) return failure(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, call.de265_get_error_text(pushed));
        at += length;
    }
    return success();
}

// The VUI's colour description, as libheif's own plugin sets it; a value libheif does not
// know is an error when decoding strictly.
static struct heif_error describe_colour(struct hevc_decoder *decoder, const struct de265_image *picture, struct heif_image *image) {
    struct heif_color_profile_nclx *nclx = call.heif_nclx_color_profile_alloc();
    if (nclx == NULL) return failure(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "no memory for a colour description");
    struct heif_error set[3] = {
        call.heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)call.de265_get_image_colour_primaries(picture)),
        call.heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)call.de265_get_image_transfer_characteristics(picture)),
        call.heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)call.de265_get_image_matrix_coefficients(picture)),
    };
    for (int which = 0; which < 3; which++) {
        if (decoder->strict && set[which].code != heif_error_Ok) {
            call.heif_nclx_color_profile_free(nclx);
            return set[which];
        }
    }
    nclx->full_range_flag = (uint8_t)(call.de265_get_image_full_range_flag(picture) != 0);
    struct heif_error described = call.heif_image_set_nclx_color_profile(image, nclx);
    call.heif_nclx_color_profile_free(nclx);
    return described;
}

// The picture's planes copied into a heif_image of libheif's (libde265 reuses its own).
static struct heif_error copy_picture(struct hevc_decoder *decoder, const struct de265_image *picture, struct heif_image **out) {
    enum de265_chroma chroma = call.de265_get_chroma_format(picture);
    int planes = chroma == de265_chroma_mono ? 1 : 3;
    int depth = call.de265_get_bits_per_pixel(picture, 0);
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    // Before libheif's copy and its conversion are allocated: a stream with more chroma or bits
    // than its hvcC says would take more memory than was admitted for it.
    if ((expected_chroma >= 0 && (int)chroma > expected_chroma) || (expected_bits >= 0 && depth > expected_bits)) {
        return failure(heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                       "the picture has more chroma or bits a sample than its hvcC states");
    }
    struct heif_image *image = NULL;
    // de265_chroma's values are heif_chroma's (monochrome, 4:2:0, 4:2:2, 4:4:4).
    struct heif_error result = call.heif_image_create(call.de265_get_image_width(picture, 0), call.de265_get_image_height(picture, 0),
                                                      planes == 1 ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                      (enum heif_chroma)chroma, &image);
    for (int plane = 0; plane < planes && result.code == heif_error_Ok; plane++) {
        int width = call.de265_get_image_width(picture, plane), height = call.de265_get_image_height(picture, plane);
        int sourceStride = 0, targetStride = 0;
        const uint8_t *source = call.de265_get_image_plane(picture, plane, &sourceStride);
        if (call.de265_get_bits_per_pixel(picture, plane) != depth) {
            result = failure(heif_error_Unsupported_feature, heif_suberror_Unsupported_color_conversion,
                             "the picture's planes differ in bits per sample");
        } else if (width <= 0 || height <= 0 || source == NULL) {
            result = failure(heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size, "libde265 gave an empty plane");
        } else if ((result = call.heif_image_add_plane(image, channels[plane], width, height, depth)).code == heif_error_Ok) {
            uint8_t *target = call.heif_image_get_plane(image, channels[plane], &targetStride);
            size_t rowBytes = (size_t)width * (size_t)((depth + 7) / 8);
            for (int row = 0; row < height; row++) {
                memcpy(target + (size_t)row * (size_t)targetStride, source + (size_t)row * (size_t)sourceStride, rowBytes);
            }
        }
    }
    if (result.code == heif_error_Ok) result = describe_colour(decoder, picture, image);
    if (result.code != heif_error_Ok) {
        if (image != NULL) call.heif_image_release(image);
        return result;
    }
    *out = image;
    return result;
}

// The item's first picture. An item holds one; a stream that holds more is not decoded
// further, so hostile data cannot make us decode pictures nobody shows.
static struct heif_error decode_image(void *raw, struct heif_image **out) {
    struct hevc_decoder *decoder = raw;
    *out = NULL;
    de265_error status = call.de265_flush_data(decoder->context);
    if (status != DE265_OK) return failure(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, call.de265_get_error_text(status));
    int more = 1;
    while (more) {
        more = 0;
        status = call.de265_decode(decoder->context, &more);
        // Once the data is flushed, WAITING_FOR_INPUT_DATA means every picture is out.
        if (status != DE265_OK) break;
        const struct de265_image *picture = call.de265_get_next_picture(decoder->context);
        if (picture != NULL) {
            struct heif_error copied = copy_picture(decoder, picture, out);
            call.de265_release_next_picture(decoder->context);
            if (copied.code == heif_error_Ok) {
                __atomic_add_fetch(&pictures_given, 1, __ATOMIC_RELAXED);
                if (decoder->workers == 0) __atomic_add_fetch(&pictures_given_without_workers, 1, __ATOMIC_RELAXED);
            }
            return copied;
        }
    }
    if (status != DE265_OK && status != DE265_ERROR_WAITING_FOR_INPUT_DATA) {
        return failure(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, call.de265_get_error_text(status));
    }
    return failure(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "libde265 gave no picture");
}

static const struct heif_decoder_plugin plugin = {
    .plugin_api_version = 2,
    .get_plugin_name = plugin_name,
    .init_plugin = NULL,
    .deinit_plugin = NULL,
    .does_support_format = supports,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = decode_image,
    .set_strict_decoding = set_strict,
};

int ig_hevc_decoder_register(void *heif) {
    void *de265 = dlopen("libde265.so.0", RTLD_NOW | RTLD_LOCAL);
    if (de265 == NULL) return 0;
#define RESOLVE_IN(handle, name) \
    if ((*(void **)&call.name = dlsym(handle, #name)) == NULL) return 0;
#define RESOLVE_DE265(type, name, parameters) RESOLVE_IN(de265, name)
#define RESOLVE_HEIF(type, name, parameters) RESOLVE_IN(heif, name)
    DE265_FUNCTIONS(RESOLVE_DE265)
    HEIF_PLUGIN_FUNCTIONS(RESOLVE_HEIF)
    // heif_init first, so that libheif's own plugins are registered before ours and never
    // after it; never paired with heif_deinit, which would unregister ours.
    if (call.heif_init(NULL).code != heif_error_Ok) return 0;
    return call.heif_register_decoder_plugin(&plugin).code == heif_error_Ok;
}

unsigned long ig_hevc_decoder_pictures(void) { return __atomic_load_n(&pictures_given, __ATOMIC_RELAXED); }
unsigned long ig_hevc_decoder_pictures_without_workers(void) {
    return __atomic_load_n(&pictures_given_without_workers, __ATOMIC_RELAXED);
}
