import Foundation
@testable import GalleryFormat
import Testing

/// `replacingScalars`, which replaced chains of Foundation's `replacingOccurrences(of:with:)`
/// in the escapings of `textconv` and `validate --format github`. Both Foundation's and the
/// standard library's replacements compare by Character, so a comma, colon or percent sign
/// followed by a combining accent (one Character with it) went through them raw: a property
/// separator a hostile file name could smuggle into a workflow command.
@Suite("Escaping by scalar")
struct EscapingTests {
    func github(_ text: String) -> String {
        text.replacingScalars(["%": "%25", "\r": "%0D", "\n": "%0A"]).replacingScalars([":": "%3A", ",": "%2C"])
    }

    /// Where no combining mark is involved, what Foundation's chain gave.
    @Test func itEscapesAsFoundationsChainDid() {
        for text in ["plain", "a\r\nb", "\r\n", "a\\b\tc\nd\re", "\u{1F600},\u{200D}:", "é,e,", "%%%", "100% done: a, b", ""] {
            let chained = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(of: ":", with: "%3A")
                .replacingOccurrences(of: ",", with: "%2C")
            #expect(github(text) == chained, "\(text.unicodeScalars.map(\.value))")
        }
    }

    /// Where one is, every comma, colon, percent sign and line break is escaped all the same,
    /// which Foundation's chain and `replacing(_:with:)` both miss.
    @Test func aCombiningMarkCannotShieldWhatItFollows() {
        #expect(github(",\u{301}x") == "%2C\u{301}x")
        #expect(github(":\u{301}") == "%3A\u{301}")
        #expect(github("%\u{301}0A") == "%25\u{301}0A")
        #expect(",\u{301}x".replacingOccurrences(of: ",", with: "%2C") == ",\u{301}x")
        #expect(",\u{301}".replacing(",", with: "%2C") == ",\u{301}")
        #expect("a\r\nb".replacing("\n", with: "\\n") == "a\r\nb")
        #expect("a\r\nb".replacingScalars(["\r": "\\r", "\n": "\\n"]) == "a\\r\\nb")
    }
}
