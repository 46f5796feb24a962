import Foundation
@testable import GalleryFormat
import Testing

/// `trimmingWhitespace()`, which replaced Foundation's `trimmingCharacters(in:
/// .whitespacesAndNewlines)` where imagegallery no longer links Foundation, trims what
/// Foundation trims: every scalar of the Basic Multilingual Plane, alone and around text.
@Suite("Trimming white space")
struct TrimmingTests {
    @Test func everyScalarIsTrimmedAsFoundationTrimsIt() {
        var differ: [UInt32] = []
        for value in UInt32(0) ... 0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let mark = String(scalar)
            for text in [mark, mark + "a b" + mark, "x" + mark + "y", mark + mark + "é\u{301}" + mark]
            where text.trimmingWhitespace() != text.trimmingCharacters(in: .whitespacesAndNewlines) {
                differ.append(value)
            }
        }
        #expect(differ.isEmpty, "\(differ.map { String($0, radix: 16) })")
    }

    @Test func textWithNothingButWhiteSpaceBecomesEmpty() {
        #expect(" \t\n\u{2003}\u{3000} ".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
        #expect("  Trip to Lisbon\n".trimmingWhitespace() == "Trip to Lisbon")
    }
}
