/* JPEG decoding a few rows at a time behind setjmp: see image_codecs.h. */
#include "image_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} decode_error;

static void fail(j_common_ptr info) {
    decode_error *error = (decode_error *)info->err;
    error->manager.format_message(info, error->message);
    longjmp(error->jump, 1);
}

/* Warnings (level -1) stop the decode; trace messages are dropped. */
static void on_message(j_common_ptr info, int level) {
    if (level < 0) fail(info);
}

/* Nothing goes to stderr. */
static void no_output(j_common_ptr info) { (void)info; }

int ig_jpeg_decode_rows(const uint8_t *bytes, size_t count, int scale_numerator, uint32_t width, uint32_t height,
                        ig_jpeg_row_callback row, void *context, char *message, size_t message_size) {
    if (scale_numerator < 1 || scale_numerator > 8) {
        snprintf(message, message_size, "no scale of %d/8", scale_numerator);
        return IG_JPEG_MISMATCH;
    }
    struct jpeg_decompress_struct info;
    decode_error error;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = fail;
    error.manager.emit_message = on_message;
    error.manager.output_message = no_output;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_decompress(&info);
        return IG_JPEG_ERROR;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, bytes, (unsigned long)count);
    jpeg_read_header(&info, TRUE);
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    info.scale_num = (unsigned int)scale_numerator;
    info.scale_denom = 8;
    jpeg_start_decompress(&info);
    if (info.output_width != width || info.output_height != height || info.output_components != 4) {
        snprintf(message, message_size, "libjpeg reads the frame as %u × %u, not %u × %u", info.output_width,
                 info.output_height, width, height);
        jpeg_destroy_decompress(&info);
        return IG_JPEG_MISMATCH;
    }
    /* In libjpeg's image pool: freed with the decoder, also after a longjmp. */
    JSAMPARRAY rows = info.mem->alloc_sarray((j_common_ptr)&info, JPOOL_IMAGE, width * 4, IG_JPEG_ROWS_AT_ONCE);
    while (info.output_scanline < info.output_height) {
        JDIMENSION read = jpeg_read_scanlines(&info, rows, IG_JPEG_ROWS_AT_ONCE);
        for (JDIMENSION index = 0; index < read; index++) row(context, rows[index], width, cmyk);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return IG_JPEG_OK;
}
