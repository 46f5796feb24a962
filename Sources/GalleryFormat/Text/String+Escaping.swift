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
