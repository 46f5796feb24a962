import Foundation
import GalleryTestSupport
import Testing

/// Peak memory of `validate` on the hostile fixtures, measured by GNU time on the real binary.
@Suite("imagegallery validate: memory")
struct ValidateMemoryTests {
    func peak(_ arguments: [String]) throws -> (status: Int32, mebibytes: Double) {
        let (result, mebibytes) = try Subprocess.imagegalleryPeakMemory(arguments)
        return (result.status, mebibytes)
    }

    /// Every invalid fixture at once, bombs included, decoding every image: well under 100 MB.
    @Test func everyInvalidFixtureWithinOneHundredMegabytes() throws {
        let run = try peak(["validate", "--deep", "--format", "json", TestPaths.fixture("invalid")])
        #expect(run.status == 1)
        #expect(run.mebibytes < 100, "peak \(run.mebibytes) MiB")
    }

    /// A 120-megapixel PNG decoded row by row: its 480 MB of RGBA never exist at once.
    @Test func aHugePNGIsDecodedInRowsOfMemory() throws {
        let path = TestPaths.fixture("invalid/deep/IG-BLB-009-png-120-megapixels.imagegallery")
        let run = try peak(["validate", "--deep", "--max-pixels", "200000000", path])
        #expect(run.status == 0)
        #expect(run.mebibytes < 50, "peak \(run.mebibytes) MiB")
    }
}
