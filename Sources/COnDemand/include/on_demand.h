#ifndef IMAGEGALLERY_ON_DEMAND_H
#define IMAGEGALLERY_ON_DEMAND_H

/// Libraries loaded when first needed, not linked: format 2.0's decoders (libavif and libheif
/// bring some thirty libraries of encoders with them), libarchive (with libxml2, ICU and
/// six compressors) and Little CMS (for the few images that carry a colour profile), which every start of the tool would otherwise map and relocate, for the
/// few commands that read an archive or a new image type. This file defines the functions
/// those callers use, under the libraries' own names, each forwarding to the library loaded
/// with dlopen. `ig_library_load` loads one library and says why it could not.

enum ig_library {
    IG_LIBRARY_WEBP = 0,
    IG_LIBRARY_GIF = 1,
    IG_LIBRARY_AVIF = 2,
    IG_LIBRARY_HEIF = 3,
    IG_LIBRARY_ARCHIVE = 4,
    IG_LIBRARY_LCMS2 = 5,
};

/// 1 when the library and every function its callers use are there (loaded once, on the
/// first call, from any thread); else 0, with `*reason` saying what is missing.
int ig_library_load(enum ig_library library, const char **reason);

#endif
