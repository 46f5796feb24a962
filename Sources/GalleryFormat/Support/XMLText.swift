/// Text made safe for XML 1.0, for the XML the toolkit writes (JUnit reports, ComicInfo.xml).
public enum XMLText {
    /// Escapes the five special characters and replaces what XML 1.0 cannot carry at all
    /// (other C0 controls, U+FFFE, U+FFFF) with U+FFFD, so the result always parses.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
