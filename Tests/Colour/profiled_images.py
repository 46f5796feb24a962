#!/usr/bin/python3
"""Profiled images as phones, cameras and other encoders write them, and the sRGB colour
Little CMS gives each patch (issue 31's tests): usage profiled_images.py FOLDER.

Each image is a 256 x 128 grid of eight flat 64 px patches, saturated enough that reading the
numbers as sRGB is wrong by far more than the tests allow. It is written as JPEG, PNG and WebP
tagged with Debian's profiles (colord's and icc-profiles-free's) and a Display P3 profile built
here; as AVIF with code points (avifenc --cicp) and a profile; as HEIC with a profile (heif-enc
keeps a PNG's). FOLDER/references.json lists, per file, the numbers the file holds at each
patch's centre (decoded by Pillow, avifdec or heif-convert, which do not convert colour) and
the sRGB colour lcms2 gives them through Pillow's ImageCms (relative colorimetric), the
reference the thumbnails are held to. Files whose description is sRGB's are listed with
"same_as", the untagged file whose thumbnail they must equal byte for byte.
"""
import ctypes
import io
import json
import os
import subprocess
import sys

from PIL import Image, ImageCms

PATCHES = [(230, 40, 40), (40, 200, 60), (40, 60, 220), (240, 220, 50),
           (200, 60, 200), (60, 200, 210), (128, 128, 128), (90, 60, 40)]
CENTRES = [(32 + 64 * (i % 4), 32 + 64 * (i // 4)) for i in range(8)]
COLORD = "/usr/share/color/icc/colord/"

lcms = ctypes.CDLL("liblcms2.so.2")


class XYY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


class Triple(ctypes.Structure):
    _fields_ = [("red", XYY), ("green", XYY), ("blue", XYY)]


lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(XYY), ctypes.POINTER(Triple), ctypes.c_void_p * 3]
lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]


def built_profile(white, primaries, curve):
    """A matrix/TRC profile from published primaries and a parametric curve (type 4), through
    Little CMS's C API: Pillow's ImageCms makes only sRGB, Lab and XYZ."""
    tone = lcms.cmsBuildParametricToneCurve(None, 4, (ctypes.c_double * 5)(*curve))
    triple = Triple(*(XYY(x, y, 1.0) for x, y in primaries))
    handle = lcms.cmsCreateRGBProfile(ctypes.byref(XYY(white[0], white[1], 1.0)), ctypes.byref(triple),
                                      (ctypes.c_void_p * 3)(tone, tone, tone))
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(handle, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(handle, buffer, ctypes.byref(size))
    return buffer.raw


def save(handle):
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(handle, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(handle, buffer, ctypes.byref(size))
    return buffer.raw


SAMPLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_uint16), ctypes.POINTER(ctypes.c_uint16), ctypes.c_void_p)


def cmyk_profile():
    """A CMYK input profile built with Little CMS's C API (no free CMYK profile is in Debian's
    colour packages): an AToB0 table of 9 points a side from ink (C, M, Y, K) to Lab, of inks
    that, unlike the naive (1 - C)(1 - K) red, also take some of the other primaries, taken as
    sRGB. It is a real lookup-table profile, so the CMYK path runs through Little CMS as a
    printer's profile would."""
    for name, restype, argtypes in [
            ("cmsCreateProfilePlaceholder", ctypes.c_void_p, [ctypes.c_void_p]),
            ("cmsSetProfileVersion", None, [ctypes.c_void_p, ctypes.c_double]),
            ("cmsSetDeviceClass", None, [ctypes.c_void_p, ctypes.c_uint32]),
            ("cmsSetColorSpace", None, [ctypes.c_void_p, ctypes.c_uint32]),
            ("cmsSetPCS", None, [ctypes.c_void_p, ctypes.c_uint32]),
            ("cmsPipelineAlloc", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32]),
            ("cmsStageAllocCLut16bit", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_void_p]),
            ("cmsStageSampleCLut16bit", ctypes.c_int, [ctypes.c_void_p, SAMPLER, ctypes.c_void_p, ctypes.c_uint32]),
            ("cmsPipelineInsertStage", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]),
            ("cmsWriteTag", ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]),
            ("cmsD50_XYZ", ctypes.c_void_p, [])]:
        function = getattr(lcms, name)
        function.restype, function.argtypes = restype, argtypes

    def sample(inputs, outputs, _cargo):
        c, m, y, k = (inputs[i] / 65535 for i in range(4))
        # Inks as printers' are: cyan takes some green and blue, magenta some blue and red.
        rgb = [round(255 * (1 - c) * (1 - 0.1 * m) * (1 - k)), round(255 * (1 - m) * (1 - 0.3 * c) * (1 - k)),
               round(255 * (1 - y) * (1 - 0.15 * c) * (1 - 0.25 * m) * (1 - k))]
        lab = ImageCms.profileToProfile(Image.new("RGB", (1, 1), tuple(rgb)), srgb, lab_profile, outputMode="LAB").getpixel((0, 0))
        # Pillow's 8-bit Lab: L 0 to 255 for 0 to 100, a and b offset by 128; 16-bit Lab is 257 times it.
        for i, value in enumerate(lab):
            outputs[i] = value * 257
        return 1

    srgb, lab_profile = ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB")
    handle = lcms.cmsCreateProfilePlaceholder(None)
    lcms.cmsSetProfileVersion(handle, 2.1)
    lcms.cmsSetDeviceClass(handle, 0x70727472)   # 'prtr'
    lcms.cmsSetColorSpace(handle, 0x434D594B)    # 'CMYK'
    lcms.cmsSetPCS(handle, 0x4C616220)           # 'Lab '
    pipeline = lcms.cmsPipelineAlloc(None, 4, 3)
    clut = lcms.cmsStageAllocCLut16bit(None, 9, 4, 3, None)
    sampler = SAMPLER(sample)
    lcms.cmsStageSampleCLut16bit(clut, sampler, None, 0)
    lcms.cmsPipelineInsertStage(pipeline, 0, clut)  # cmsAT_BEGIN
    lcms.cmsWriteTag(handle, 0x41324230, pipeline)  # 'A2B0'
    lcms.cmsWriteTag(handle, 0x77747074, lcms.cmsD50_XYZ())  # 'wtpt'
    return save(handle)


D65 = (0.3127, 0.3290)
P3 = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
BT2020 = [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
SRGB_CURVE = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
BT709_CURVE = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]

def main(folder):
    profiles = {
        "adobergb": open(COLORD + "AdobeRGB1998.icc", "rb").read(),
        "prophoto": open(COLORD + "ProPhotoRGB.icc", "rb").read(),
        "widegamut": open(COLORD + "WideGamutRGB.icc", "rb").read(),
        "applergb": open(COLORD + "AppleRGB.icc", "rb").read(),
        "displayp3": built_profile(D65, P3, SRGB_CURVE),
    }
    bt2020 = built_profile(D65, BT2020, BT709_CURVE)
    grey_profile = open("/usr/share/color/icc/Gray.icc", "rb").read()
    srgb = ImageCms.createProfile("sRGB")

    patches = Image.new("RGB", (256, 128))
    for (x, y), colour in zip(CENTRES, PATCHES):
        patches.paste(colour, (x - 32, y - 32, x + 32, y + 32))
    grey_patches = Image.new("L", (256, 128))
    for (x, y), colour in zip(CENTRES, PATCHES):
        grey_patches.paste(sum(colour) // 3, (x - 32, y - 32, x + 32, y + 32))
    patches.save(os.path.join(folder, "source.png"))


    def numbers(image):
        """The numbers at each patch's centre, averaged over 8 x 8 pixels."""
        image = image.convert("RGB")
        found = []
        for x, y in CENTRES:
            box = [image.getpixel((x + dx, y + dy)) for dx in range(-4, 4) for dy in range(-4, 4)]
            found.append([round(sum(p[c] for p in box) / len(box)) for c in range(3)])
        return found


    def expected(raw, profile, mode="RGB"):
        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        converted = []
        for colour in raw:
            one = Image.new(mode, (1, 1), colour[0] if mode == "L" else tuple(colour))
            converted.append(list(ImageCms.profileToProfile(one, source, srgb, renderingIntent=1,
                                                            outputMode="RGB").getpixel((0, 0))))
        return converted


    files = []


    def record(name, raw, profile, mode="RGB"):
        files.append({"file": name, "raw": raw, "expected": expected(raw, profile, mode)})


    def run(*command):
        subprocess.run(command, check=True, capture_output=True)


    for key, profile in profiles.items():
        patches.save(os.path.join(folder, key + ".jpg"), quality=95, subsampling=0, icc_profile=profile)
        record(key + ".jpg", numbers(Image.open(os.path.join(folder, key + ".jpg"))), profile)
        patches.save(os.path.join(folder, key + ".png"), icc_profile=profile)
        record(key + ".png", numbers(patches), profile)
        patches.save(os.path.join(folder, key + ".webp"), lossless=True, icc_profile=profile)
        record(key + ".webp", numbers(patches), profile)

    grey_patches.save(os.path.join(folder, "grey.jpg"), quality=95, icc_profile=grey_profile)
    record("grey.jpg", numbers(Image.open(os.path.join(folder, "grey.jpg")).convert("L")), grey_profile, "L")
    grey_patches.save(os.path.join(folder, "grey.png"), icc_profile=grey_profile)
    record("grey.png", numbers(grey_patches), grey_profile, "L")

    # A CMYK JPEG as Photoshop writes one (Pillow stores CMYK inverted, with Adobe's APP14),
    # tagged with a lookup-table profile. Its "raw" colours are the naive formula's, what a
    # reader without the profile shows.
    cmyk = Image.new("CMYK", (256, 128))
    for (x, y), colour in zip(CENTRES, PATCHES):
        ink = tuple(255 - value for value in colour) + (0,)
        cmyk.paste(ink, (x - 32, y - 32, x + 32, y + 32))
    cmyk_bytes = cmyk_profile()
    cmyk.save(os.path.join(folder, "cmyk.jpg"), quality=95, icc_profile=cmyk_bytes)
    decoded = Image.open(os.path.join(folder, "cmyk.jpg"))
    inks = [decoded.getpixel((x, y)) for x, y in CENTRES]
    source_profile = ImageCms.ImageCmsProfile(io.BytesIO(cmyk_bytes))
    files.append({"file": "cmyk.jpg",
                  "raw": [[round((255 - c) * (255 - ink[3]) / 255) for c in ink[:3]] for ink in inks],
                  "expected": [list(ImageCms.profileToProfile(Image.new("CMYK", (1, 1), ink), source_profile, srgb,
                                                              renderingIntent=1, outputMode="RGB").getpixel((0, 0)))
                               for ink in inks]})

    source = os.path.join(folder, "source.png")
    for name, cicp, profile in [("p3-nclx.avif", "12/13/6", profiles["displayp3"]), ("bt2020-nclx.avif", "9/1/9", bt2020)]:
        target = os.path.join(folder, name)
        run("avifenc", "--cicp", cicp, "-r", "full", "-y", "444", "--min", "0", "--max", "0", source, target)
        run("avifdec", target, target + ".png")
        record(name, numbers(Image.open(target + ".png")), profile)
    run("avifenc", "--icc", COLORD + "ProPhotoRGB.icc", "-y", "444", "--min", "0", "--max", "0", source, os.path.join(folder, "prophoto.avif"))
    run("avifdec", os.path.join(folder, "prophoto.avif"), os.path.join(folder, "prophoto.avif.png"))
    record("prophoto.avif", numbers(Image.open(os.path.join(folder, "prophoto.avif.png"))), profiles["prophoto"])
    for key in ("prophoto", "displayp3"):
        target = os.path.join(folder, key + ".heic")
        run("heif-enc", "-q", "100", "-p", "chroma=444", "-o", target, os.path.join(folder, key + ".png"))
        run("heif-convert", target, target + ".png")
        record(key + ".heic", numbers(Image.open(target + ".png")), profiles[key])

    # Descriptions that are sRGB's: the same pictures as the untagged file, byte for byte.
    same = []
    patches.save(os.path.join(folder, "untagged.jpg"), quality=95, subsampling=0)
    for key, profile in [("hp", open("/usr/share/color/icc/sRGB.icc", "rb").read()),
                         ("colord", open(COLORD + "sRGB.icc", "rb").read()),
                         ("pillow", ImageCms.ImageCmsProfile(srgb).tobytes())]:
        patches.save(os.path.join(folder, "srgb-" + key + ".jpg"), quality=95, subsampling=0, icc_profile=profile)
        same.append({"file": "srgb-" + key + ".jpg", "same_as": "untagged.jpg"})
    patches.save(os.path.join(folder, "untagged.png"))


    def png_with(chunks):
        """source.png with extra chunks after IHDR."""
        import struct
        import zlib
        data = open(os.path.join(folder, "untagged.png"), "rb").read()
        extra = b""
        for kind, body in chunks:
            extra += struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        return data[:33] + extra + data[33:]


    open(os.path.join(folder, "gama.png"), "wb").write(png_with([(b"gAMA", (45455).to_bytes(4, "big"))]))
    same.append({"file": "gama.png", "same_as": "untagged.png"})
    open(os.path.join(folder, "srgb-chunk.png"), "wb").write(png_with([(b"sRGB", b"\x00")]))
    same.append({"file": "srgb-chunk.png", "same_as": "untagged.png"})
    run("avifenc", "--cicp", "1/13/6", "-y", "444", "--min", "0", "--max", "0", source, os.path.join(folder, "srgb-nclx.avif"))
    run("avifenc", "--cicp", "2/2/6", "-y", "444", "--min", "0", "--max", "0", source, os.path.join(folder, "unspecified-nclx.avif"))
    same.append({"file": "srgb-nclx.avif", "same_as": "unspecified-nclx.avif"})

    json.dump({"centres": CENTRES, "converted": files, "unchanged": same}, open(os.path.join(folder, "references.json"), "w"))


if __name__ == "__main__":
    main(sys.argv[1])
