#ifndef IMAGEGALLERY_FORMAT_TWO_H
#define IMAGEGALLERY_FORMAT_TWO_H

/// Format 2.0's decoders are loaded when first needed, not linked: libavif and libheif bring
/// some thirty libraries of encoders with them, which every start of the tool would otherwise
/// map and relocate (a `--version` 1.4 times slower). This file defines the functions the
/// decoders call, under the libraries' own names, each forwarding to the library loaded with
/// dlopen. `ig_format_two_load` loads one library and says why it could not.

enum ig_format_two_library {
    IG_FORMAT_TWO_WEBP = 0,
    IG_FORMAT_TWO_GIF = 1,
    IG_FORMAT_TWO_AVIF = 2,
    IG_FORMAT_TWO_HEIF = 3,
};

/// 1 when the library and every function the decoder calls are there (loaded once, on the
/// first call, from any thread); else 0, with `*reason` saying what is missing.
int ig_format_two_load(enum ig_format_two_library library, const char **reason);

#endif
