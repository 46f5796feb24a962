import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryImageHeaders

/// An AVIF's and a HEIC's colour description (issue 31, item 1), from files the encoders people
/// use write: `avifenc --cicp` with the code points of Display P3 (P3 primaries, the sRGB curve)
/// and of BT.2020, `avifenc --icc`, and `heif-enc` from a PNG tagged with Little CMS's profile.
/// Debian 12's `heif-enc` (libheif 1.15.1) writes no `colr` box for its `--colour_primaries`,
/// `--transfer_characteristic` and `--matrix_coefficients` options (checked with `heif-info`:
/// "color profile: no"), so a HEIC's code points are not tested from a real file here.
@Suite struct ColourDescriptionHEIFTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
        let made = try Subprocess.run("/usr/bin/python3", ["-c", """
            import sys
            from PIL import Image, ImageCms
            folder = sys.argv[1]
            profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
            open(folder + "/profile.icc", "wb").write(profile)
            image = Image.new("RGB", (64, 48), (200, 90, 60))
            image.save(folder + "/plain.png")
            image.save(folder + "/tagged.png", icc_profile=profile)
            """, folder.path])
        try #require(made.status == 0, "Pillow could not make the files: \(made.stderr)")
    }

    func encode(_ tool: String, _ arguments: [String]) throws {
        let program = try #require(Subprocess.which(tool), "\(tool) is not installed: scripts/install-deps test installs it")
        let result = try Subprocess.run(program, arguments)
        try #require(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
    }

    func reading(_ name: String) throws -> ColourReading {
        let bytes = try FileBytes.read(folder.file(name))
        return try ColourDescription.ofHEIF(size: UInt64(bytes.count)) { bytes.bytes(at: $0, count: $1) }
    }

    @Test func anAVIFsCodePointsAndProfile() throws {
        try encode("avifenc", ["--cicp", "12/13/6", "-r", "full", folder.file("plain.png"), folder.file("p3.avif")])
        #expect(try reading("p3.avif") == ColourReading(.codePoints(primaries: 12, transfer: 13, matrix: 6, fullRange: true)))
        try encode("avifenc", ["--cicp", "9/1/9", "-r", "limited", folder.file("plain.png"), folder.file("bt2020.avif")])
        #expect(try reading("bt2020.avif") == ColourReading(.codePoints(primaries: 9, transfer: 1, matrix: 9, fullRange: false)))
        try encode("avifenc", ["--icc", folder.file("profile.icc"), folder.file("plain.png"), folder.file("icc.avif")])
        let profile = try FileBytes.read(folder.file("profile.icc"))
        #expect(try reading("icc.avif") == ColourReading(.iccProfile(profile, compressed: false)))
    }

    @Test func aHEICsProfile() throws {
        try encode("heif-enc", ["-o", folder.file("plain.heic"), folder.file("plain.png")])
        #expect(try reading("plain.heic") == ColourReading(.unspecified))
        try encode("heif-enc", ["-o", folder.file("icc.heic"), folder.file("tagged.png")])
        let profile = try FileBytes.read(folder.file("profile.icc"))
        #expect(try reading("icc.heic") == ColourReading(.iccProfile(profile, compressed: false)))
    }
}
