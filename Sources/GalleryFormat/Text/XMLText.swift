/// Text made safe for the markup the toolkit writes: XML 1.0 (JUnit reports, ComicInfo.xml)
/// and HTML (the web gallery). One escaper, so that the outputs cannot drift apart: every
/// context escapes the same characters the same way, and differs only where its parser differs.
public enum MarkupText {
    /// Where the text lands.
    public enum Context: Sendable {
        /// XML element content.
        case xmlText
        /// An XML attribute value in double quotes: tab and line feed are written as
        /// references too, which attribute-value normalisation would turn into spaces.
        case xmlAttribute
        /// HTML element content or a double-quoted HTML attribute value.
        case html
    }

    /// Escapes `text` for `context`. In every context:
    /// - `&`, `<`, `>`, `"` become `&amp;`, `&lt;`, `&gt;`, `&quot;`, and `'` becomes `&#39;`,
    ///   the one spelling that XML and every version of HTML read alike;
    /// - what neither format can carry becomes U+FFFD: the control characters (C0 but tab,
    ///   line feed and carriage return; DEL; C1) and the noncharacters (U+FDD0–U+FDEF and the
    ///   last two code points of every plane, U+FFFE and U+FFFF among them). XML 1.0 forbids
    ///   C0 and U+FFFE/U+FFFF outright and discourages the rest; HTML forbids all of them;
    /// - the bidirectional formatting characters (ALM, LRM, RLM, the embeddings, overrides and
    ///   isolates) are kept, as hexadecimal references: the text reads the same once parsed,
    ///   but the file itself shows them, so they cannot reorder what surrounds them when the
    ///   file is read as plain text.
    ///
    /// A carriage return is written as `&#13;` in XML, whose line-end handling would otherwise
    /// turn it into a line feed; HTML turns it into a line feed either way (and calls the
    /// reference an error), so there it stays as it is.
    public static func escape(_ text: String, for context: Context) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            case "\t": out.append(contentsOf: context == .xmlAttribute ? "&#9;".unicodeScalars : "\t".unicodeScalars)
            case "\n": out.append(contentsOf: context == .xmlAttribute ? "&#10;".unicodeScalars : "\n".unicodeScalars)
            case "\r": out.append(contentsOf: context == .html ? "\r".unicodeScalars : "&#13;".unicodeScalars)
            default:
                if isUnwritable(scalar.value) {
                    out.append("\u{FFFD}")
                } else if isBidiFormatting(scalar.value) {
                    out.append(contentsOf: "&#x\(String(scalar.value, radix: 16, uppercase: true));".unicodeScalars)
                } else {
                    out.append(scalar)
                }
            }
        }
        return String(out)
    }

    /// Control characters (general category Cc) and noncharacters.
    static func isUnwritable(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F ... 0x9F).contains(value) || (0xFDD0 ... 0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// Unicode's Bidi_Control characters: ALM, LRM, RLM, LRE RLE PDF LRO RLO, LRI RLI FSI PDI.
    static func isBidiFormatting(_ value: UInt32) -> Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x202A ... 0x202E).contains(value)
            || (0x2066 ... 0x2069).contains(value)
    }
}
