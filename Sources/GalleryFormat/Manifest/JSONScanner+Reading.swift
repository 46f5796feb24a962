/// The scanner for JSON other than the manifest: an entry point that owns the text's lifetime,
/// and reads that give Swift strings where the manifest decoder works on raw byte ranges.
///
/// Errors are `GalleryError`s with the scanner's codes (IG-MAN-001 syntax, -002 encoding, -003
/// duplicate key, -004 depth) and a location holding the byte offset in the text and the JSON
/// pointer of the value at fault, worded as for the manifest: a caller that reports in its own
/// terms maps them once, at its boundary.
extension JSONScanner {
    /// Runs `body` over a scanner of `bytes`, returning what it returns.
    ///
    /// The scanner reads the array's memory in place, so it exists only inside `body`: it cannot
    /// be copied out (`~Copyable`) and is lent `inout`. Nothing is checked before `body` runs;
    /// it reads the values it expects, then calls `finish()` when the text must end there.
    /// `entry` names the text in errors' locations (an entry of a gallery file); nil for none.
    package static func read<Result>(_ bytes: [UInt8], maxDepth: Int, entry: String? = nil,
                                    _ body: (inout JSONScanner) throws -> Result) throws -> Result {
        try bytes.withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer, maxDepth: maxDepth, entry: entry)
            return try body(&scanner)
        }
    }

    /// True when only whitespace is left: lets a caller tell an empty text from a bad one
    /// before `peekKind()` would refuse it as a value missing.
    package mutating func isAtEnd() throws -> Bool {
        try skipWhitespace()
        return try !available(1)
    }

    /// Reads an object, calling `member` with each key, escapes decoded, while the scanner stands
    /// at the member's value; `member` must consume it (`skipValue()` for keys it does not know).
    /// A key seen before in the same object is refused: which value was meant cannot be known.
    /// The key is on `pointer` meanwhile.
    package mutating func readObject(_ member: (inout JSONScanner, String) throws -> Void) throws {
        try readObject(checkDuplicates: true) { scanner, raw in
            let key = scanner.decodeString(raw)
            try member(&scanner, key)
        }
    }

    /// Reads a string, escapes decoded. The text is checked as it is read: valid UTF-8, no raw
    /// control character, no invalid escape, no lone surrogate.
    package mutating func readString() throws -> String {
        decodeString(try readRawString())
    }
}
