import Foundation
@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// Names that differ only by letter case are refused (format, section 4.3.4), through full
/// Unicode case folding. Python's `str.casefold()` implements CaseFolding.txt; every character
/// its Unicode version assigns must fold the same here, up to canonical equivalence.
@Suite("Case folding")
struct CaseFoldingTests {
    @Test func everyCharacterFoldsAsCaseFoldingTxtSays() throws {
        let script = """
            import sys, unicodedata
            for v in range(0x110000):
                if 0xD800 <= v <= 0xDFFF or unicodedata.category(chr(v)) == 'Cn': continue
                f = chr(v).casefold()
                if f != chr(v): print('%X %s' % (v, ' '.join('%X' % ord(c) for c in f)))
            """
        let result = try Subprocess.run("/usr/bin/python3", ["-c", script])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 1400, "Python listed \(lines.count) characters that fold")
        var changed = Set<UInt32>()
        for line in lines {
            let values = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            let scalar = try #require(Unicode.Scalar(values[0]))
            let expected = String(String.UnicodeScalarView(values.dropFirst().compactMap(Unicode.Scalar.init)))
            changed.insert(values[0])
            #expect(String(scalar).caseFolded == expected, "U+\(line)")
        }
        // And the characters Python leaves alone stay as they are (ASCII lowercase, ı, CJK).
        for value: UInt32 in [0x61, 0x7A, 0x131, 0x4E00, 0x13A0, 0x1F600] where !changed.contains(value) {
            let text = String(Unicode.Scalar(value)!)
            #expect(text.caseFolded == text)
        }
    }

    @Test func theSpecificationsExamplesFold() {
        #expect("Straße".caseFolded == "strasse")
        #expect("ﬁle".caseFolded == "file")
        #expect("ΣΊΣΥΦΟΣ".caseFolded == "σίσυφοσ")
        #expect("ς".caseFolded == "σ".caseFolded)
        #expect("\u{212A}".caseFolded == "k")  // Kelvin sign
        #expect("\u{AB70}".caseFolded == "\u{13A0}")  // Cherokee folds to its uppercase
    }
}
