import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryImageHeaders
@testable import GalleryFormat
@testable import GalleryImaging

/// The profile check before Little CMS (issue 31's hostile profiles): Little CMS's own sRGB,
/// Lab (an `mft2` table) and XYZ (an `mAB ` table) profiles, made by Pillow's `ImageCms`, pass;
/// the same with their tag table or a lookup table bent out of shape are refused, each naming
/// what is wrong.
@Suite struct ICCProfileCheckTests {
    let profiles: [String: [UInt8]]

    init() throws {
        let folder = try TemporaryDirectory()
        let made = try Subprocess.run("/usr/bin/python3", ["-c", """
            import sys
            from PIL import ImageCms
            for name in ("sRGB", "LAB", "XYZ"):
                open(f"{sys.argv[1]}/{name}.icc", "wb").write(ImageCms.ImageCmsProfile(ImageCms.createProfile(name)).tobytes())
            """, folder.path])
        try #require(made.status == 0, "Pillow could not make the profiles: \(made.stderr)")
        profiles = try Dictionary(uniqueKeysWithValues: ["sRGB", "LAB", "XYZ"].map { ($0, try FileBytes.read(folder.file("\($0).icc"))) })
    }

    /// The offset of the data of the tag `signature`, from the tag table.
    static func tag(_ signature: String, in profile: [UInt8]) -> (entry: Int, data: Int) {
        let count = Int(profile.be32(128))
        let entry = (0 ..< count).map { 132 + 12 * $0 }.first { profile.fourCC($0) == signature }!
        return (entry, Int(profile.be32(entry + 4)))
    }

    static func setBE32(_ value: UInt32, at offset: Int, in profile: inout [UInt8]) {
        for index in 0 ..< 4 { profile[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }

    func refusal(_ profile: [UInt8]) -> String? {
        do {
            _ = try ICCProfileCheck.check(profile)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func littleCMSsOwnProfilesPass() throws {
        #expect(try ICCProfileCheck.check(profiles["sRGB"]!) == "RGB ")
        #expect(try ICCProfileCheck.check(profiles["LAB"]!) == "Lab ")
        #expect(try ICCProfileCheck.check(profiles["XYZ"]!) == "XYZ ")
    }

    @Test func aBrokenHeaderOrTagTableIsRefused() {
        let srgb = profiles["sRGB"]!
        #expect(refusal([])?.contains("shorter than its header") == true)
        #expect(refusal(Array(srgb.prefix(100)))?.contains("shorter than its header") == true)
        #expect(refusal(Array(srgb.dropLast()))?.contains("says it is 588 bytes long, and holds 587") == true)
        var count = srgb
        Self.setBE32(0xFFFF_FFFF, at: 128, in: &count)
        #expect(refusal(count)?.contains("claims 4294967295 tags") == true)
        var outside = srgb
        Self.setBE32(UInt32(srgb.count), at: Self.tag("desc", in: srgb).entry + 4, in: &outside)
        #expect(refusal(outside)?.contains("tag 'desc'") == true)
        var overlapping = srgb
        Self.setBE32(UInt32(Self.tag("cprt", in: srgb).data + 4), at: Self.tag("wtpt", in: srgb).entry + 4, in: &overlapping)
        #expect(refusal(overlapping)?.contains("overlaps another tag's") == true, "\(String(describing: refusal(overlapping)))")
    }

    @Test func aLookupTableLargerThanItsTagIsRefused() {
        var lab = profiles["LAB"]!
        let mft2 = Self.tag("A2B0", in: lab).data
        lab[mft2 + 10] = 255  // 255 grid points on each of three inputs: 16.6 million entries in a few hundred bytes
        #expect(refusal(lab)?.contains("needs") == true, "\(String(describing: refusal(lab)))")
        lab[mft2 + 8] = 15  // and on fifteen inputs: past any count of entries
        #expect(refusal(lab)?.contains("more than 16777216 entries") == true, "\(String(describing: refusal(lab)))")
        // The XYZ profile's mAB has no colour lookup table (its offset is 0): one pointed past the tag.
        let mAB = Self.tag("A2B0", in: profiles["XYZ"]!).data
        #expect(profiles["XYZ"]!.be32(mAB + 24) == 0)
        var pastItself = profiles["XYZ"]!
        Self.setBE32(0x7FFF_0000, at: mAB + 24, in: &pastItself)
        #expect(refusal(pastItself)?.contains("points past itself") == true, "\(String(describing: refusal(pastItself)))")
    }
}
