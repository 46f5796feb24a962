import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryImageHeaders
@testable import GalleryFormat
@testable import GalleryImaging

/// The colour description each type carries, read by our own code (issue 31, item 1), from files
/// that Pillow writes with an ICC profile that Little CMS made (Pillow's `ImageCms`): the profile
/// comes back byte for byte, split over several JPEG segments when it is large, and a broken
/// description is reported where it is and read as sRGB.
@Suite struct ColourDescriptionTests {
    let folder: TemporaryDirectory
    /// Little CMS's sRGB profile, and one of 200,000 bytes (the same, padded) that a JPEG can
    /// only hold in four APP2 segments.
    let profile: [UInt8]
    let largeProfile: [UInt8]

    /// The files, made once per test by Pillow: `NAME.jpg`, `.png` and `.webp` tagged with
    /// `profile.icc`, `large.jpg` with `large.icc`, and `plain.*` untagged.
    static let makeFiles = """
        import sys, io
        from PIL import Image, ImageCms
        folder = sys.argv[1]
        profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
        large = profile + bytes(200000 - len(profile))
        open(folder + "/profile.icc", "wb").write(profile)
        open(folder + "/large.icc", "wb").write(large)
        image = Image.new("RGB", (32, 24), (200, 90, 60))
        for kind, name in (("JPEG", "jpg"), ("PNG", "png"), ("WEBP", "webp")):
            image.save(f"{folder}/tagged.{name}", kind, icc_profile=profile)
            image.save(f"{folder}/plain.{name}", kind)
        image.save(folder + "/large.jpg", "JPEG", icc_profile=large)
        """

    init() throws {
        folder = try TemporaryDirectory()
        let made = try Subprocess.run("/usr/bin/python3", ["-c", Self.makeFiles, folder.path])
        try #require(made.status == 0, "Pillow could not make the files (scripts/install-deps test installs python3-pil): \(made.stderr)")
        profile = try FileBytes.read(folder.file("profile.icc"))
        largeProfile = try FileBytes.read(folder.file("large.icc"))
    }

    func reading(_ name: String, _ reader: (UInt64, (UInt64, Int) throws -> [UInt8]) throws -> ColourReading) throws -> ColourReading {
        let bytes = try FileBytes.read(folder.file(name))
        return try reader(UInt64(bytes.count)) { bytes.bytes(at: $0, count: $1) }
    }

    @Test func aJPEGsProfileComesBackByteForByte() throws {
        #expect(try reading("tagged.jpg", ColourDescription.ofJPEG) == ColourReading(.iccProfile(profile, compressed: false)))
        #expect(try reading("plain.jpg", ColourDescription.ofJPEG) == ColourReading(.unspecified))
    }

    @Test func aLargeProfileIsJoinedFromItsSegmentsInTheirOrder() throws {
        var bytes = try FileBytes.read(folder.file("large.jpg"))
        let segments = Self.iccSegments(bytes)
        #expect(segments.count == 4, "Pillow splits 200,000 bytes into four APP2 segments")
        #expect(try reading("large.jpg", ColourDescription.ofJPEG) == ColourReading(.iccProfile(largeProfile, compressed: false)))
        // The same segments, the first two swapped: the sequence numbers put them back in order.
        let (first, second) = (segments[0], segments[1])
        let swapped = Array(bytes[second]) + Array(bytes[first])
        bytes.replaceSubrange(first.lowerBound ..< second.upperBound, with: swapped)
        let reordered = try ColourDescription.ofJPEG(size: UInt64(bytes.count)) { bytes.bytes(at: $0, count: $1) }
        #expect(reordered == ColourReading(.iccProfile(largeProfile, compressed: false)))
    }

    @Test func aMissingOrRepeatedSegmentIsReportedAndReadAsSRGB() throws {
        let bytes = try FileBytes.read(folder.file("large.jpg"))
        let segments = Self.iccSegments(bytes)
        var missing = bytes
        missing.removeSubrange(segments[2])
        let withoutThird = try ColourDescription.ofJPEG(size: UInt64(missing.count)) { missing.bytes(at: $0, count: $1) }
        #expect(withoutThird.description == .unspecified)
        #expect(withoutThird.problem?.contains("number 3 is missing") == true, "\(String(describing: withoutThird.problem))")
        var repeated = bytes
        repeated.replaceSubrange(segments[1], with: Array(bytes[segments[0]]))
        let twice = try ColourDescription.ofJPEG(size: UInt64(repeated.count)) { repeated.bytes(at: $0, count: $1) }
        #expect(twice.description == .unspecified)
        #expect(twice.problem?.contains("a number already seen") == true, "\(String(describing: twice.problem))")
    }

    @Test func aPNGsProfileIsItsCompressedICCP() throws {
        let reading = try reading("tagged.png", ColourDescription.ofPNG)
        guard case .iccProfile(let stored, compressed: true) = reading.description else {
            Issue.record("tagged.png reads as \(reading)")
            return
        }
        // zlib's own reading of what we found is the profile Pillow was given.
        let stream = folder.file("stored.zlib")
        try FileBytes.write(stored, to: stream)
        let inflated = try Subprocess.run("/usr/bin/python3", ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], 'rb').read()))", stream])
        #expect(Array(inflated.stdoutData) == profile)
        #expect(try reading.description.iccProfile() == profile, "our own inflating agrees")
        #expect(try self.reading("plain.png", ColourDescription.ofPNG) == ColourReading(.unspecified))
    }

    /// An iCCP profile that inflates past the limit (a zlib bomb: 8 MiB of zeros in a few
    /// kilobytes), one cut short and one corrupt: each a problem, never more memory than the limit.
    @Test func aHostileICCPStreamIsRefusedWithinTheLimit() throws {
        func profile(_ stream: [UInt8]) throws -> [UInt8]? {
            try ColourDescription.iccProfile(stream, compressed: true).iccProfile()
        }
        let bomb = PNGBytes.zlibCompressed([UInt8](repeating: 0, count: 8 << 20))
        #expect(bomb.count < 64 << 10)
        #expect(throws: ColourProblem("the iCCP profile inflates to more than \(ColourDescription.largestProfile) bytes",
                                      code: .colourDescriptionUnusable)) {
            try profile(bomb)
        }
        let whole = PNGBytes.zlibCompressed(self.profile)
        #expect(try profile(whole) == self.profile)
        #expect(throws: ColourProblem("the iCCP profile's zlib stream ends early", code: .colourDescriptionUnusable)) { try profile(Array(whole.dropLast(20))) }
        var corrupt = whole
        corrupt[0] = 0x00  // not a zlib header
        #expect(throws: ColourProblem.self) { try profile(corrupt) }
        #expect(try ColourDescription.sRGB.iccProfile() == nil)
    }

    /// One entry for every type the format takes; a GIF has no description.
    @Test func everyTypeHasItsReader() throws {
        for (type, name) in [(MediaType.jpeg, "tagged.jpg"), (.png, "tagged.png"), (.webp, "tagged.webp")] {
            let bytes = try FileBytes.read(folder.file(name))
            let read = try ColourDescription.of(type, size: UInt64(bytes.count)) { bytes.bytes(at: $0, count: $1) }
            #expect(try read.description.iccProfile() == profile, "\(name)")
        }
        #expect(try ColourDescription.of(.gif, size: 0) { _, _ in [] } == ColourReading(.unspecified))
    }

    /// The chunks of the PNG specification's order of precedence, written into an untagged PNG
    /// before its IDAT: cICP wins over iCCP, iCCP over sRGB, sRGB over gAMA and cHRM.
    @Test func aPNGsColourChunksFollowTheSpecificationsPrecedence() throws {
        let plain = try FileBytes.read(folder.file("plain.png"))
        let iccp = Array(try FileBytes.read(folder.file("tagged.png")))
        func with(_ chunks: [[UInt8]]) throws -> ColourReading {
            let bytes = Array(plain[0 ..< 33]) + chunks.flatMap { $0 } + Array(plain[33...])
            return try ColourDescription.ofPNG(size: UInt64(bytes.count)) { bytes.bytes(at: $0, count: $1) }
        }
        let gamma = PNGBytes.chunk("gAMA", [0, 0, 0xB1, 0x8F])  // 45455: 1/2.2
        let chromaticities = PNGBytes.chunk("cHRM", (0 ..< 8).flatMap { _ in [UInt8](repeating: 1, count: 4) })
        let srgb = PNGBytes.chunk("sRGB", [0])
        let cicp = PNGBytes.chunk("cICP", [12, 13, 0, 1])  // Display P3 primaries, the sRGB curve
        let iccpChunk = Self.chunk("iCCP", in: iccp)
        #expect(try with([gamma]) == ColourReading(.gamma(45455, chromaticities: nil)))
        #expect(try with([chromaticities, gamma]).description == .gamma(45455, chromaticities: Array(repeating: 0x0101_0101, count: 8)))
        #expect(try with([chromaticities]) == ColourReading(.unspecified))
        #expect(try with([gamma, srgb]) == ColourReading(.sRGB))
        #expect(try with([srgb, iccpChunk]).description == (try reading("tagged.png", ColourDescription.ofPNG)).description)
        #expect(try with([iccpChunk, cicp, srgb]) == ColourReading(.codePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true)))
        let broken = try with([PNGBytes.chunk("cICP", [12, 13, 1, 1])])
        #expect(broken.description == .unspecified && broken.problem?.contains("cICP chunk at byte 33") == true, "\(broken)")
    }

    @Test func aWebPsProfileIsItsICCPChunk() throws {
        #expect(try reading("tagged.webp", ColourDescription.ofWebP) == ColourReading(.iccProfile(profile, compressed: false)))
        #expect(try reading("plain.webp", ColourDescription.ofWebP) == ColourReading(.unspecified))
    }

    /// The byte ranges of a JPEG's APP2 ICC segments, marker included, in file order.
    static func iccSegments(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if bytes[index + 1] == 0xE2, Array(bytes[(index + 4) ..< (index + 16)]) == ColourDescription.jpegICCSignature {
                ranges.append(index ..< index + 2 + length)
            }
            index += 2 + length
        }
        return ranges
    }

    /// The whole chunk of `type` (length, type, data, CRC) in a PNG.
    static func chunk(_ type: String, in png: [UInt8]) -> [UInt8] {
        var offset = 8
        while offset + 8 <= png.count {
            let length = Int(png.be32(offset))
            if png.fourCC(offset + 4) == type { return Array(png[offset ..< offset + 12 + length]) }
            offset += 12 + length
        }
        return []
    }
}
