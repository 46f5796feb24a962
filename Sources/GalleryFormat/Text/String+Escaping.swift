extension StringProtocol {
    /// The text with each scalar that `replacements` names replaced by its text, in one pass.
    /// By scalar, not by character as `replacing(_:with:)` compares: "\r\n" is one Character,
    /// and a comma followed by a combining accent is another, so a character-wise replacement
    /// of "\n" or "," would let both through an escaping meant to catch them.
    package func replacingScalars(_ replacements: [Unicode.Scalar: String]) -> String {
        guard unicodeScalars.contains(where: { replacements[$0] != nil }) else { return String(self) }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if let replacement = replacements[scalar] {
                result.append(contentsOf: replacement.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

extension StringProtocol {
    /// A library's message made one line of plain text before we pass it on: each run of line
    /// breaks, tabs and other control characters becomes one space, and the ends are trimmed.
    /// libheif's messages can hold newlines, which would split one finding of `validate` over
    /// two lines and break the one-finding-per-line formats.
    package var foldingControlCharacters: String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace, scalar != " " { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }
}
