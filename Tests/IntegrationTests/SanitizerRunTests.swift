import Foundation
import GalleryTestSupport
import Testing

/// `make test-sanitize` (scripts/test-sanitize) proves something only if the programs the tests
/// run are the sanitized ones: the script names them (IMAGEGALLERY_BINARY, IMAGEGALLERY_FETCH_BINARY),
/// and a wrong name would run a plain build; the memory tests run a plain build on purpose.
@Suite("Sanitizer run", .enabled(if: Sanitizers.reports != nil, "only under scripts/test-sanitize"))
struct SanitizerRunTests {
    /// `help=1` makes an ASan runtime list its flags at start-up; a plain build prints nothing.
    func isSanitized(_ executable: String) throws -> Bool {
        let result = try Subprocess.run(executable, ["--help"], environment: ["ASAN_OPTIONS": "help=1"])
        return result.stderr.contains("Available flags for AddressSanitizer")
    }

    @Test func theBinaryAndTheFetchHelperTheTestsRunAreSanitized() throws {
        let binary = try TestPaths.binary()
        #expect(try isSanitized(binary), "\(binary)")
        let helper = try TestPaths.fetchHelper()
        #expect(try isSanitized(helper), "\(helper)")
    }

    @Test func theMemoryTestsMeasureAPlainBuild() throws {
        let plain = try #require(Sanitizers.memoryBinary)
        #expect(try plain != TestPaths.binary())
        #expect(try !isSanitized(plain), "\(plain)")
    }
}
