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
