@testable import GalleryImaging
import Testing

/// libheif 1.15 reports both an image past the size limit we set and a file that lies about
/// itself (an `iloc` extent of 4 GiB in a file of 7 KB) as a memory allocation error with the
/// subcode "security limit exceeded". The first is a limit (IG-BLB-009, a warning); the second
/// is damage (IG-BLB-016, an error), as libavif reports the AVIF twin (issue 28, item 2).
@Suite("libheif's errors: past a limit, or corrupt")
struct LibraryLimitClassificationTests {
    @Test func aSecurityLimitOnTheFilesOwnClaimsIsCorruption() {
        // libheif 1.15.1's own words for heic-iloc-4GiB.heic (heif-convert prints them).
        let iloc = "Memory allocation error: Security limit exceeded: iloc box contained 4294967295 bytes, total memory "
            + "size would be 4294967382 bytes, exceeding the security limit of 536870912 bytes"
        #expect(!HEIFDecoder.isPastLimit(memory: true, securityLimit: true, iloc))
        let size = "Memory allocation error: Security limit exceeded: Image size 70000x70000 exceeds the maximum image size "
            + "65535x65535"
        #expect(HEIFDecoder.isPastLimit(memory: true, securityLimit: true, size))
        #expect(HEIFDecoder.isPastLimit(memory: true, securityLimit: false, "Memory allocation error: out of memory"))
        #expect(!HEIFDecoder.isPastLimit(memory: false, securityLimit: false, "Invalid input: No 'ftyp' box"))
    }
}
