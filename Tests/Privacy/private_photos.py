#!/usr/bin/python3
"""Photos that say where they were taken and by whom, as phones write them, and a judge of a
stripped copy (issue 32's tests of `info --privacy`, `list --privacy` and `strip`). Usage:

    private_photos.py make FOLDER
    private_photos.py judge ORIGINAL STRIPPED --scope location|identity|all

`make` writes FOLDER/private.{jpg,png,webp,gif,avif,heic}, 96 x 64 gradients (so that a pixel
hash means something), each with GPS latitude, longitude and altitude (EXIF GPS; XMP exif:GPS*
in the GIF, whose only metadata is XMP), XMP photoshop:City and Iptc4xmpExt:LocationShown (City
and Sublocation), the body and lens serial numbers, the owner's name, Artist, Copyright,
DateTimeOriginal, Orientation 6 (not in the GIF) and an Adobe RGB (1998) profile (colord's; not
in the GIF); the JPEG also has IPTC City and By-line. Pillow writes the JPEG, PNG and WebP with
the profile, avifenc (--icc) the AVIF and heif-enc the HEIC (it keeps a PNG's iCCP), then
exiftool writes the metadata; each file is read back with exiftool and `make` fails loudly when
a field did not land. FOLDER/plain.jpg has no metadata at all (strip's "nothing to do"). Prints
a JSON summary: per file, the fields as exiftool reads them and the pixels' hash.

`judge` says whether STRIPPED is a right strip of ORIGINAL for the scope (several may be joined
by commas): exit 0 and a JSON verdict when it is, exit 1 and the verdict with each failure in
words when not. It checks that exiftool finds
  - no location field (GPS*, City, Sub-location, State, Province-State, Country*, Location*,
    in any group) for `location`; no identity field (SerialNumber, LensSerialNumber,
    OwnerName, CameraOwnerName, Artist, Creator, By-line, Author, MakerNote) for `identity`;
    for `all`, nothing but Orientation, the ICC profile and the file's structure (groups
    File, ExifTool, JFIF, QuickTime, RIFF, ICC_Profile; PNG's and GIF's structural tags;
    Composite ImageSize and Megapixels; and IFD0's resolution and YCbCrPositioning, which a
    minimal EXIF carries);
  - for `location` and `identity`, every other field of ORIGINAL still there (the packets'
    XMPToolkit and IPTC ApplicationRecordVersion excepted), Copyright with its value;
  - Orientation as ORIGINAL had it, and ORIGINAL's ICC profile byte for byte;
  - no Warning or Error from exiftool, and no new `exiftool -validate` warning (those saying a
    removed tag is missing excepted);
  - the pixels decoded by the reference decoder (Pillow for JPEG, PNG and GIF, dwebp, avifdec,
    heif-convert), as RGBA bytes without orientation applied, hash (SHA-256) as ORIGINAL's do.
Scratch files live in a temporary folder that is removed.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

from PIL import Image

ADOBE_RGB = "/usr/share/color/icc/colord/AdobeRGB1998.icc"
SIZE = (96, 64)
LATITUDE, LONGITUDE, ALTITUDE = 48.8584, 2.2945, 35
TEXT = {"City": "Paris", "LocationShownCity": "Paris", "LocationShownSublocation": "Champ de Mars",
        "SerialNumber": "BODY-0042-7781", "LensSerialNumber": "LENS-0099-1204", "OwnerName": "Jane Owner",
        "Artist": "Jane Artist", "Copyright": "(c) 2024 Jane Copyright", "DateTimeOriginal": "2024:05:01 12:34:56",
        "IPTCCity": "Paris", "By-line": "Jane Byline"}

LOCATION = re.compile(r"^(GPS|Location|Country)|^(City|Sub-?location|State|Province-?State)$"
                      r"|(City|Sublocation|ProvinceState|WorldRegion|CountryCode|CountryName)$")
IDENTITY = re.compile(r"^((Body|Internal|Lens)?SerialNumber|(Camera)?OwnerName|Artist|Creator|By-line(Title)?"
                      r"|Author|MakerNote.*)$")
COPYRIGHT = {"Copyright", "Rights", "CopyrightNotice"}
STRUCTURE_GROUPS = {"ExifTool", "File", "JFIF", "QuickTime", "RIFF", "ICC_Profile"}
STRUCTURE_TAGS = {
    "PNG": {"ImageWidth", "ImageHeight", "BitDepth", "ColorType", "Compression", "Filter", "Interlace",
            "ProfileName", "Gamma", "SRGBRendering", "PixelsPerUnitX", "PixelsPerUnitY", "PixelUnits",
            "Palette", "Transparency", "BackgroundColor", "SignificantBits", "WhitePointX", "WhitePointY",
            "RedX", "RedY", "GreenX", "GreenY", "BlueX", "BlueY", "AnimationFrames", "AnimationPlays"},
    "GIF": {"GIFVersion", "ImageWidth", "ImageHeight", "HasColorMap", "ColorResolutionDepth", "BitsPerPixel",
            "BackgroundColor", "AnimationIterations", "FrameCount", "Duration", "TransparentColor"},
    "Composite": {"ImageSize", "Megapixels"},
    "IFD0": {"Orientation", "XResolution", "YResolution", "ResolutionUnit", "YCbCrPositioning"},
}
# Packet bookkeeping a strip may drop with the last field of its packet.
BOOKKEEPING = {("XMP-x", "XMPToolkit"), ("IPTC", "ApplicationRecordVersion")}
UNCHECKED_GROUPS = {"ExifTool", "File", "Composite"}


def run(*command):
    """Run a tool; its CompletedProcess (text), raising with its stderr when it fails."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (command[0], done.returncode, done.stderr.strip()))
    return done


def tags(path, *options):
    """exiftool's tags of path (ICC profile contents left out: the profile is compared as
    bytes), as [(family 0 group, family 1 group, name, value)], duplicates kept."""
    done = subprocess.run(["exiftool", "-j", "-a", "-G0:1", "-n", "--ICC_Profile:all", *options, path],
                          capture_output=True, text=True)
    try:
        pairs = json.loads(done.stdout, object_pairs_hook=lambda p: p)[0]
    except (ValueError, IndexError):
        raise RuntimeError("exiftool read nothing from %s: %s" % (path, done.stderr.strip()))
    found = []
    for key, value in pairs:
        parts = key.split(":")
        if len(parts) >= 2:
            found.append((parts[0], parts[1] if len(parts) == 3 else parts[0], parts[-1], value))
    return found


def icc_bytes(path):
    return subprocess.run(["exiftool", "-b", "-icc_profile", path], capture_output=True).stdout


def kind_of(path):
    """The file's type from its first bytes: jpeg, png, gif, webp, avif or heic."""
    with open(path, "rb") as f:
        head = f.read(32)
    if head.startswith(b"\xff\xd8"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"GIF8"):
        return "gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp":
        return "avif" if head[8:12] in (b"avif", b"avis") else "heic"
    raise RuntimeError("%s is none of JPEG, PNG, GIF, WebP, AVIF and HEIC" % path)


def decoded_pixels(path, scratch):
    """SHA-256 of the pixels the reference decoder gives (RGBA, no orientation applied), and
    the decoded size; raises RuntimeError when the file does not decode."""
    kind = kind_of(path)
    target = os.path.join(scratch, "decoded-%d.png" % len(os.listdir(scratch)))
    try:
        if kind == "webp":
            run("dwebp", path, "-quiet", "-o", target)
        elif kind == "avif":
            run("avifdec", path, target)
        elif kind == "heic":
            run("heif-convert", path, target)
        else:
            target = path
        with Image.open(target) as image:
            image.load()
            rgba = image.convert("RGBA")
    except (OSError, RuntimeError, SyntaxError, ValueError) as error:
        raise RuntimeError("%s does not decode (%s): %s" % (os.path.basename(path), kind, error))
    return hashlib.sha256(rgba.tobytes()).hexdigest(), rgba.size


# MARK: make

def gradient():
    """A 96 x 64 picture whose every pixel differs from its neighbours: red across, green
    down, blue in diagonal bands."""
    image = Image.new("RGB", SIZE)
    image.putdata([(x * 255 // (SIZE[0] - 1), y * 255 // (SIZE[1] - 1), ((x + 2 * y) * 5) % 256)
                   for y in range(SIZE[1]) for x in range(SIZE[0])])
    return image


def exiftool_arguments(kind):
    """What exiftool writes into a file of this kind."""
    names = [("-XMP-photoshop:City", "City"), ("-XMP-iptcExt:LocationShownCity", "LocationShownCity"),
             ("-XMP-iptcExt:LocationShownSublocation", "LocationShownSublocation"),
             ("-SerialNumber", "SerialNumber"), ("-LensSerialNumber", "LensSerialNumber"),
             ("-OwnerName", "OwnerName"), ("-Artist", "Artist"), ("-Copyright", "Copyright"),
             ("-DateTimeOriginal", "DateTimeOriginal")]
    arguments = ["%s=%s" % (option, TEXT[key]) for option, key in names]
    if kind == "gif":
        return arguments + ["-XMP-exif:GPSLatitude=%s N" % LATITUDE, "-XMP-exif:GPSLongitude=%s E" % LONGITUDE,
                            "-XMP-exif:GPSAltitude=%s" % ALTITUDE, "-XMP-exif:GPSAltitudeRef=0"]
    arguments += ["-GPSLatitude=%s" % LATITUDE, "-GPSLatitudeRef=N", "-GPSLongitude=%s" % LONGITUDE,
                  "-GPSLongitudeRef=E", "-GPSAltitude=%s" % ALTITUDE, "-GPSAltitudeRef=0", "-Orientation#=6"]
    if kind == "jpeg":
        arguments += ["-IPTC:City=%s" % TEXT["IPTCCity"], "-IPTC:By-line=%s" % TEXT["By-line"]]
    return arguments


def expected_fields(kind):
    """(family 1 group, name, value) that must be in a made file of this kind."""
    if kind == "gif":
        gps, body, owner = "XMP-exif", "XMP-exifEX", "XMP-tiff"
        fields = [("XMP-exif", "DateTimeOriginal", TEXT["DateTimeOriginal"])]
    else:
        gps, body, owner = "GPS", "ExifIFD", "IFD0"
        fields = [("ExifIFD", "DateTimeOriginal", TEXT["DateTimeOriginal"]), ("IFD0", "Orientation", 6)]
    fields += [(gps, "GPSLatitude", LATITUDE), (gps, "GPSLongitude", LONGITUDE), (gps, "GPSAltitude", ALTITUDE),
               ("XMP-photoshop", "City", TEXT["City"]),
               ("XMP-iptcExt", "LocationShownCity", TEXT["LocationShownCity"]),
               ("XMP-iptcExt", "LocationShownSublocation", TEXT["LocationShownSublocation"]),
               (body, "SerialNumber", TEXT["SerialNumber"]), (body, "LensSerialNumber", TEXT["LensSerialNumber"]),
               (body, "OwnerName", TEXT["OwnerName"]), (owner, "Artist", TEXT["Artist"]),
               (owner, "Copyright", TEXT["Copyright"])]
    if kind == "jpeg":
        fields += [("IPTC", "City", TEXT["IPTCCity"]), ("IPTC", "By-line", TEXT["By-line"])]
    return fields


def same_value(found, wanted):
    if isinstance(wanted, float):
        return isinstance(found, (int, float)) and abs(found - wanted) < 1e-6
    return found == wanted


def verify_made(path, kind):
    """Fail loudly unless every field, the profile and no warning are in the made file; the
    fields exiftool reads, as {"group:name": value}."""
    found = tags(path)
    problems = ["exiftool: %s: %s" % (name, value) for _, _, name, value in found if name in ("Warning", "Error")]
    for group, name, value in expected_fields(kind):
        values = [v for _, g, n, v in found if (g, n) == (group, name)]
        if not any(same_value(v, value) for v in values):
            problems.append("%s:%s is %s, not %r" % (group, name, values or "absent", value))
    with open(ADOBE_RGB, "rb") as f:
        profile = f.read()
    if kind != "gif" and icc_bytes(path) != profile:
        problems.append("the Adobe RGB profile is not embedded as it was given")
    if problems:
        raise SystemExit("private_photos.py make: %s is wrong:\n  %s" % (path, "\n  ".join(problems)))
    return {"%s:%s" % (g, n): v for g0, g, n, v in found
            if g0 != "Composite" and (n == "Orientation" or removes(["all"], g0, g, n))}


def write_images(folder, scratch):
    """The six images and plain.jpg, before any metadata: {file name: kind}."""
    with open(ADOBE_RGB, "rb") as f:
        profile = f.read()
    picture = gradient()
    source = os.path.join(scratch, "source.png")
    picture.save(source, icc_profile=profile)
    path = lambda name: os.path.join(folder, name)
    picture.save(path("private.jpg"), quality=92, icc_profile=profile)
    picture.save(path("private.png"), icc_profile=profile)
    picture.save(path("private.webp"), quality=90, icc_profile=profile)
    picture.save(path("private.gif"))
    run("avifenc", "--icc", ADOBE_RGB, "-y", "444", "-s", "8", source, path("private.avif"))
    run("heif-enc", "-q", "90", "-o", path("private.heic"), source)
    picture.save(path("plain.jpg"), quality=92)
    return {"private.jpg": "jpeg", "private.png": "png", "private.webp": "webp", "private.gif": "gif",
            "private.avif": "avif", "private.heic": "heic"}


def make(folder):
    os.makedirs(folder, exist_ok=True)
    summary = {"folder": os.path.abspath(folder), "files": []}
    with tempfile.TemporaryDirectory(prefix="private-photos-") as scratch:
        for name, kind in write_images(folder, scratch).items():
            path = os.path.join(folder, name)
            run("exiftool", "-q", "-overwrite_original", *exiftool_arguments(kind), path)
            fields = verify_made(path, kind)
            pixels, size = decoded_pixels(path, scratch)
            summary["files"].append({"file": name, "type": kind, "bytes": os.path.getsize(path), "size": size,
                                     "icc": kind != "gif", "orientation": 6 if kind != "gif" else None,
                                     "pixels": pixels, "fields": fields})
        plain = os.path.join(folder, "plain.jpg")
        leftovers = [(g, n) for g0, g, n, _ in tags(plain) if g0 not in STRUCTURE_GROUPS | {"Composite"}]
        if leftovers or icc_bytes(plain):
            raise SystemExit("private_photos.py make: plain.jpg carries metadata: %s" % leftovers)
        summary["plain"] = {"file": "plain.jpg", "type": "jpeg", "pixels": decoded_pixels(plain, scratch)[0]}
    json.dump(summary, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


# MARK: judge

def removes(scopes, group0, group1, name):
    """Whether a right strip of the scopes leaves no such tag."""
    if "all" in scopes:
        return not (group0 in STRUCTURE_GROUPS or name in STRUCTURE_TAGS.get(group1, ()))
    location = LOCATION.search(name) is not None
    identity = IDENTITY.match(name) is not None or group0 == "MakerNotes"
    return ("location" in scopes and location) or ("identity" in scopes and identity)


def covered(scopes, group0, group1, name):
    """Whether a right strip of the scopes may remove this tag: what it removes, and location
    for `identity` too (the command's `--strip identity` includes location)."""
    return (removes(scopes, group0, group1, name)
            or ("identity" in scopes and LOCATION.search(name) is not None))


def leaks(scopes, stripped):
    """Failures for what the scopes should have removed and is still there."""
    failures = []
    for group0, group1, name, value in stripped:
        # Warnings are judged apart; a composite tag comes from tags that are listed anyway.
        if group0 not in ("ExifTool", "Composite") and removes(scopes, group0, group1, name):
            failures.append("%s:%s (%s) is still there" % (group1, name, str(value)[:60]))
    return failures


def losses(scopes, original, stripped):
    """Failures for what the strip removed and should have kept."""
    failures = []
    after = {}
    for _, group1, name, value in stripped:
        after.setdefault((group1, name), []).append(value)
    for group0, group1, name, value in original:
        key = (group1, name)
        if name == "Orientation" or (name in COPYRIGHT and "all" not in scopes):
            if value not in after.get(key, []):
                failures.append("%s:%s was %r and is now %s" % (group1, name, value, after.get(key, "absent")))
        elif ("all" not in scopes and group0 not in UNCHECKED_GROUPS and key not in BOOKKEEPING
              and not covered(scopes, group0, group1, name) and key not in after):
            failures.append("%s:%s (%s) is outside the scope and was removed" % (group1, name, str(value)[:60]))
    return failures


def exiftool_complaints(original, stripped):
    """Failures for exiftool's warnings and errors, and -validate's new warnings."""
    plain = [(name, str(value)) for group0, _, name, value in tags(stripped)
             if group0 == "ExifTool" and name in ("Warning", "Error")]
    failures = ["exiftool %s: %s" % (name.lower(), value) for name, value in plain]

    def validation(path):
        return {str(value) for group0, _, name, value in tags(path, "-validate", "-warning", "-error")
                if group0 == "ExifTool" and name in ("Warning", "Error")}
    for warning in sorted(validation(stripped) - validation(original) - {value for _, value in plain}):
        if not warning.startswith("Missing required"):
            failures.append("exiftool -validate: %s" % warning)
    return failures


def judge_files(original, stripped, scopes):
    """The failures of STRIPPED against ORIGINAL, and what exiftool still finds in STRIPPED."""
    failures = []
    try:
        if kind_of(original) != kind_of(stripped):
            failures.append("the stripped file is %s, the original %s" % (kind_of(stripped), kind_of(original)))
        before, after = tags(original), tags(stripped)
    except RuntimeError as error:
        return [str(error)], []
    failures += leaks(scopes, after)
    failures += losses(scopes, before, after)
    profile = icc_bytes(original)
    if profile and icc_bytes(stripped) != profile:
        failures.append("the ICC profile (%d bytes) is not kept byte for byte (now %d bytes)"
                        % (len(profile), len(icc_bytes(stripped))))
    failures += exiftool_complaints(original, stripped)
    return failures, sorted({"%s:%s" % (g, n) for g0, g, n, _ in after if g0 not in UNCHECKED_GROUPS})


def judge(original, stripped, scopes):
    """Print the verdict on STRIPPED; the exit status (0 right, 1 wrong)."""
    failures, remaining = judge_files(original, stripped, scopes)
    pixels = {}
    with tempfile.TemporaryDirectory(prefix="private-photos-judge-") as scratch:
        for role, path in (("original", original), ("stripped", stripped)):
            try:
                pixels[role] = decoded_pixels(path, scratch)[0]
            except RuntimeError as error:
                pixels[role] = None
                failures.append(str(error))
    if None not in pixels.values() and pixels["original"] != pixels["stripped"]:
        failures.append("the decoded pixels differ (SHA-256 %s before, %s after)"
                        % (pixels["original"], pixels["stripped"]))
    verdict = {"original": original, "stripped": stripped, "scope": scopes, "ok": not failures,
               "failures": failures, "pixels": pixels, "remaining": remaining}
    json.dump(verdict, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0 if not failures else 1


def main(argv):
    usage = "usage: private_photos.py make FOLDER | judge ORIGINAL STRIPPED --scope location|identity|all[,...]"
    if len(argv) == 3 and argv[1] == "make":
        make(argv[2])
        return 0
    if len(argv) == 6 and argv[1] == "judge" and argv[4] == "--scope":
        scopes = sorted(set(argv[5].split(",")))
        if scopes and all(s in ("location", "identity", "all") for s in scopes):
            for path in argv[2:4]:
                if not os.path.isfile(path):
                    print("private_photos.py: %s: no such file" % path, file=sys.stderr)
                    return 2
            return judge(argv[2], argv[3], scopes)
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
