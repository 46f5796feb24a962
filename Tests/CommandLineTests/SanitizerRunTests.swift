import Foundation
import GalleryTestSupport
import Testing

/// `make test-sanitize` (scripts/test-sanitize) proves something only if the programs the tests
/// run are the sanitized ones: TestPaths.binary falls back to .build/debug/imagegallery, a plain
/// build, when none is beside the test bundle, and the memory tests run a plain build on purpose.
@Suite("Sanitizer run", .enabled(if: Sanitizers.reports != nil, "only under scripts/test-sanitize"))
struct SanitizerRunTests {
    /// `help=1` makes an ASan runtime list its flags at start-up; a plain build prints nothing.
    func isSanitized(_ executable: String) throws -> Bool {
        let result = try Subprocess.run(executable, ["--help"], environment: ["ASAN_OPTIONS": "help=1"])
        return result.stderr.contains("Available flags for AddressSanitizer")
    }

    @Test func theBinaryAndTheFetchHelperTheTestsRunAreSanitized() throws {
        #expect(try isSanitized(TestPaths.binary), "\(TestPaths.binary)")
        let helper = (TestPaths.binary as NSString).deletingLastPathComponent + "/imagegallery-fetch"
        #expect(try isSanitized(helper), "\(helper)")
    }

    @Test func theMemoryTestsMeasureAPlainBuild() throws {
        let plain = try #require(Sanitizers.memoryBinary)
        #expect(plain != TestPaths.binary)
        #expect(try !isSanitized(plain), "\(plain)")
    }
}
