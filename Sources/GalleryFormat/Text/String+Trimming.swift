extension StringProtocol {
    /// The text without the white space (Unicode's White_Space: spaces, tabs, line breaks) at
    /// either end: what Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gives,
    /// without the part of Foundation that brings ICU into every start. Foundation also trims
    /// U+200B ZERO WIDTH SPACE, which Unicode took out of White_Space in 4.0.1; so does this, so
    /// that a title or caption comes out as it did.
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace || scalar == "\u{200B}" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first ... last]))
    }
}
