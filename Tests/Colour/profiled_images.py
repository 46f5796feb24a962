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
import struct
import subprocess
import sys
import zlib

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


# sRGB's primaries adapted to D50 (Bradford), as ICC profiles give them.
SRGB_TO_XYZ_D50 = [(0.4360747, 0.3850649, 0.1430804), (0.2225045, 0.7168786, 0.0606169), (0.0139322, 0.0971045, 0.7141733)]

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
        # sRGB to CIELAB (D50, the profile connection space), in Little CMS's 16-bit Lab:
        # L 0 to 100 as 0 to 65535, a and b offset by 128 and scaled by 257.
        linear = [(v / 255 / 12.92) if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
        xyz = [sum(row[i] * linear[i] for i in range(3)) / white
               for row, white in zip(SRGB_TO_XYZ_D50, (0.9642, 1.0, 0.8249))]
        f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz]
        lab = (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))
        outputs[0] = max(0, min(65535, round(lab[0] * 655.35)))
        outputs[1] = max(0, min(65535, round((lab[1] + 128) * 257)))
        outputs[2] = max(0, min(65535, round((lab[2] + 128) * 257)))
        return 1

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

def run(*command):
    subprocess.run(command, check=True, capture_output=True)


def numbers(image):
    """The numbers at each patch's centre, averaged over 8 x 8 pixels."""
    image = image.convert("RGB")
    found = []
    for x, y in CENTRES:
        box = [image.getpixel((x + dx, y + dy)) for dx in range(-4, 4) for dy in range(-4, 4)]
        found.append([round(sum(p[c] for p in box) / len(box)) for c in range(3)])
    return found


class Fixtures:
    """The files of FOLDER and what references.json says of each."""

    def __init__(self, folder):
        self.folder = folder
        self.srgb = ImageCms.createProfile("sRGB")
        self.converted, self.unchanged = [], []
        self.patches = Image.new("RGB", (256, 128))
        for (x, y), colour in zip(CENTRES, PATCHES):
            self.patches.paste(colour, (x - 32, y - 32, x + 32, y + 32))
        self.source = self.path("source.png")
        self.patches.save(self.source)
        self.profiles = {
            "adobergb": open(COLORD + "AdobeRGB1998.icc", "rb").read(),
            "prophoto": open(COLORD + "ProPhotoRGB.icc", "rb").read(),
            "widegamut": open(COLORD + "WideGamutRGB.icc", "rb").read(),
            "applergb": open(COLORD + "AppleRGB.icc", "rb").read(),
            "displayp3": built_profile(D65, P3, SRGB_CURVE),
        }

    def path(self, name):
        return os.path.join(self.folder, name)

    def record(self, name, raw, profile, mode="RGB"):
        """A converted file: its numbers, and Little CMS's sRGB for them (relative colorimetric)."""
        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        expected = []
        for colour in raw:
            one = Image.new(mode, (1, 1), colour[0] if mode == "L" else tuple(colour))
            expected.append(list(ImageCms.profileToProfile(one, source, self.srgb, renderingIntent=1,
                                                           outputMode="RGB").getpixel((0, 0))))
        self.converted.append({"file": name, "raw": raw, "expected": expected})

    def tagged(self):
        """JPEG, PNG and WebP tagged with each RGB profile; JPEG and PNG with a grey one."""
        for key, profile in self.profiles.items():
            self.patches.save(self.path(key + ".jpg"), quality=95, subsampling=0, icc_profile=profile)
            self.record(key + ".jpg", numbers(Image.open(self.path(key + ".jpg"))), profile)
            self.patches.save(self.path(key + ".png"), icc_profile=profile)
            self.record(key + ".png", numbers(self.patches), profile)
            self.patches.save(self.path(key + ".webp"), lossless=True, icc_profile=profile)
            self.record(key + ".webp", numbers(self.patches), profile)
        grey = open("/usr/share/color/icc/Gray.icc", "rb").read()
        grey_patches = Image.new("L", (256, 128))
        for (x, y), colour in zip(CENTRES, PATCHES):
            grey_patches.paste(sum(colour) // 3, (x - 32, y - 32, x + 32, y + 32))
        grey_patches.save(self.path("grey.jpg"), quality=95, icc_profile=grey)
        self.record("grey.jpg", numbers(Image.open(self.path("grey.jpg")).convert("L")), grey, "L")
        grey_patches.save(self.path("grey.png"), icc_profile=grey)
        self.record("grey.png", numbers(grey_patches), grey, "L")

    def cmyk(self):
        """A CMYK JPEG as Photoshop writes one (Pillow stores CMYK inverted, with Adobe's APP14),
        tagged with a lookup-table profile. Its "raw" colours are the naive formula's, what a
        reader without the profile shows."""
        image = Image.new("CMYK", (256, 128))
        for (x, y), colour in zip(CENTRES, PATCHES):
            image.paste(tuple(255 - value for value in colour) + (0,), (x - 32, y - 32, x + 32, y + 32))
        profile = cmyk_profile()
        image.save(self.path("cmyk.jpg"), quality=95, icc_profile=profile)
        decoded = Image.open(self.path("cmyk.jpg"))
        inks = [decoded.getpixel((x, y)) for x, y in CENTRES]
        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        self.converted.append({
            "file": "cmyk.jpg",
            "raw": [[round((255 - c) * (255 - ink[3]) / 255) for c in ink[:3]] for ink in inks],
            "expected": [list(ImageCms.profileToProfile(Image.new("CMYK", (1, 1), ink), source, self.srgb,
                                                        renderingIntent=1, outputMode="RGB").getpixel((0, 0))) for ink in inks]})

    def heif(self):
        """AVIF with code points and with a profile; HEIC with profiles. Their numbers come
        from avifdec and heif-convert, which do not convert colour."""
        bt2020 = built_profile(D65, BT2020, BT709_CURVE)
        for name, cicp, profile in [("p3-nclx.avif", "12/13/6", self.profiles["displayp3"]),
                                    ("bt2020-nclx.avif", "9/1/9", bt2020)]:
            run("avifenc", "--cicp", cicp, "-r", "full", "-y", "444", "--min", "0", "--max", "0", self.source, self.path(name))
            run("avifdec", self.path(name), self.path(name + ".png"))
            self.record(name, numbers(Image.open(self.path(name + ".png"))), profile)
        run("avifenc", "--icc", COLORD + "ProPhotoRGB.icc", "-y", "444", "--min", "0", "--max", "0", self.source,
            self.path("prophoto.avif"))
        run("avifdec", self.path("prophoto.avif"), self.path("prophoto.avif.png"))
        self.record("prophoto.avif", numbers(Image.open(self.path("prophoto.avif.png"))), self.profiles["prophoto"])
        for key in ("prophoto", "displayp3"):
            target = self.path(key + ".heic")
            run("heif-enc", "-q", "100", "-p", "chroma=444", "-o", target, self.path(key + ".png"))
            run("heif-convert", target, target + ".png")
            self.record(key + ".heic", numbers(Image.open(target + ".png")), self.profiles[key])

    def srgb_equivalents(self):
        """Descriptions that are sRGB's: the same pictures as the untagged file, byte for byte."""
        self.patches.save(self.path("untagged.jpg"), quality=95, subsampling=0)
        for key, profile in [("hp", open("/usr/share/color/icc/sRGB.icc", "rb").read()),
                             ("colord", open(COLORD + "sRGB.icc", "rb").read()),
                             ("pillow", ImageCms.ImageCmsProfile(self.srgb).tobytes())]:
            self.patches.save(self.path("srgb-" + key + ".jpg"), quality=95, subsampling=0, icc_profile=profile)
            self.unchanged.append({"file": "srgb-" + key + ".jpg", "same_as": "untagged.jpg"})
        self.patches.save(self.path("untagged.png"))
        untagged = open(self.path("untagged.png"), "rb").read()
        for name, kind, body in [("gama.png", b"gAMA", (45455).to_bytes(4, "big")), ("srgb-chunk.png", b"sRGB", b"\x00")]:
            chunk = struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
            open(self.path(name), "wb").write(untagged[:33] + chunk + untagged[33:])
            self.unchanged.append({"file": name, "same_as": "untagged.png"})
        for name, cicp in [("srgb-nclx.avif", "1/13/6"), ("unspecified-nclx.avif", "2/2/6")]:
            run("avifenc", "--cicp", cicp, "-y", "444", "--min", "0", "--max", "0", self.source, self.path(name))
        self.unchanged.append({"file": "srgb-nclx.avif", "same_as": "unspecified-nclx.avif"})


def main(folder):
    fixtures = Fixtures(folder)
    fixtures.tagged()
    fixtures.cmyk()
    fixtures.heif()
    fixtures.srgb_equivalents()
    json.dump({"centres": CENTRES, "converted": fixtures.converted, "unchanged": fixtures.unchanged},
              open(fixtures.path("references.json"), "w"))


if __name__ == "__main__":
    main(sys.argv[1])
