/// Objects, arrays and what holds them together: whitespace, separators, nesting depth and
/// duplicate keys, and the end of the text.
extension JSONScanner {
    @inline(__always)
    mutating func skipWhitespace() throws {
        // Most calls stand at a token already (every value and separator checks first): no call.
        if position < bytes.count, bytes[position] > 0x20 { return }
        try skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() throws {
        // A pretty-printed manifest spends a tenth of its bytes on indentation: eight bytes at a
        // time, stopping at the first that is not white space.
        let (stop, found) = Self.firstMarked(in: bytes, from: position, by: Self.nonWhitespaceBytes)
        position = stop
        if found { return }
        while try available(1) {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Steps eight bytes at a time from `start` to the first byte `marks` sets the high bit of
    /// (`found`), or to where fewer than eight bytes remain, which the caller reads one by one.
    @inline(__always)
    static func firstMarked(in bytes: UnsafeRawBufferPointer, from start: Int, by marks: (UInt64) -> UInt64)
        -> (position: Int, found: Bool) {
        var position = start
        while position + 8 <= bytes.count {
            let marked = marks(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
            if marked != 0 { return (position + marked.trailingZeroBitCount >> 3, true) }
            position += 8
        }
        return (position, false)
    }

    /// The high bit of each byte of the word that is not a space, line feed, carriage return or tab.
    @inline(__always)
    static func nonWhitespaceBytes(_ word: UInt64) -> UInt64 {
        nonZeroBytes(word ^ Self.repeated(0x20)) & nonZeroBytes(word ^ Self.repeated(0x0A))
            & nonZeroBytes(word ^ Self.repeated(0x0D)) & nonZeroBytes(word ^ Self.repeated(0x09))
    }

    /// The high bit of each non-zero byte of the word, exactly: no carry crosses a byte, so the
    /// lowest set bit marks the first such byte (unlike the classic "has a zero byte" test).
    @inline(__always)
    static func nonZeroBytes(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return (((word & low7) &+ low7) | word) & ~low7
    }

    @inline(__always)
    static func repeated(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

    /// Steps over a UTF-8 byte order mark at the start of the text. Not JSON, but editors write
    /// one and RFC 8259 (section 8.1) lets a parser ignore it; the manifest, written by this
    /// toolkit, never has one, so only callers that read hand-edited text call this.
    package mutating func skipByteOrderMark() {
        guard base == 0, position == 0, (try? available(3)) == true,
              bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return }
        position = 3
    }

    /// The kind of the next value, after whitespace, without reading it. Throws at the end of the
    /// text and at a byte no value starts with.
    package mutating func peekKind() throws -> Kind {
        try skipWhitespace()
        guard try available(1) else { throw error(.jsonSyntax, "the JSON text ends where a value should be") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return .number
        default: throw error(.jsonSyntax, "unexpected \(describeByte(bytes[position])) where a value should be")
        }
    }

    /// Reads an object, calling `member` with each raw key while the scanner stands at the
    /// member's value; `member` must consume the value. With `checkDuplicates` the scanner
    /// refuses a key seen before in the object; callers that track their keys pass false.
    /// (No default: a call without the label is the package-wide, String-keyed `readObject(_:)`.)
    mutating func readObject(checkDuplicates: Bool, _ member: (inout JSONScanner, RawString) throws -> Void) throws {
        try skipWhitespace()
        try expect(UInt8(ascii: "{"))
        try enter()
        var seen: Set<String> = []
        var members = 0
        try skipWhitespace()
        if try consumeIf(UInt8(ascii: "}")) { depth -= 1; return }
        while true {
            members += 1
            guard members <= maxMembers else {
                throw error(.tooManyMembers, "an object has more than \(maxMembers) members")
            }
            try skipWhitespace()
            guard try available(1), bytes[position] == UInt8(ascii: "\"") else {
                throw error(.jsonSyntax, "an object member must start with a quoted key")
            }
            let keyOffset = position
            let key = try readRawString()
            path.append(.key(key))
            if checkDuplicates, !seen.insert(decodeString(key)).inserted {
                throw error(.duplicateKey, "the key \"\(decodeString(key))\" occurs twice in one object", at: keyOffset)
            }
            try skipWhitespace()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            path.removeLast()
            try skipWhitespace()
            if try consumeIf(UInt8(ascii: ",")) { continue }
            if try consumeIf(UInt8(ascii: "}")) { break }
            throw error(.jsonSyntax, "expected \",\" or \"}\" after an object member")
        }
        depth -= 1
    }

    /// Reads an array, calling `element` with each index while the scanner stands at the element;
    /// `element` must consume it. The index is on `pointer` meanwhile.
    package mutating func readArray(_ element: (inout JSONScanner, Int) throws -> Void) throws {
        try skipWhitespace()
        try expect(UInt8(ascii: "["))
        try enter()
        try skipWhitespace()
        if try consumeIf(UInt8(ascii: "]")) { depth -= 1; return }
        var index = 0
        while true {
            path.append(.index(index))
            try element(&self, index)
            path.removeLast()
            index += 1
            try skipWhitespace()
            if try consumeIf(UInt8(ascii: ",")) { continue }
            if try consumeIf(UInt8(ascii: "]")) { break }
            throw error(.jsonSyntax, "expected \",\" or \"]\" after an array element")
        }
        depth -= 1
    }

    /// Reads and discards any value, still checking all of it (duplicate keys and depth included).
    package mutating func skipValue() throws {
        switch try peekKind() {
        case .object: try readObject(checkDuplicates: true) { scanner, _ in try scanner.skipValue() }
        case .array: try readArray { scanner, _ in try scanner.skipValue() }
        case .string: _ = try readRawString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
    }

    /// Ends the document: only whitespace may follow the top-level value.
    package mutating func finish() throws {
        try skipWhitespace()
        guard try !available(1) else {
            throw error(.jsonSyntax, "unexpected \(describeByte(bytes[position])) after the end of the JSON value",
                        pointer: "")
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= maxDepth else {
            throw error(.tooDeep, "objects and arrays nest deeper than \(maxDepth) levels")
        }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws {
        guard try available(1), bytes[position] == byte else { throw expectationError(byte) }
        position += 1
    }

    private func expectationError(_ byte: UInt8) -> GalleryError {
        let found = position < bytes.count ? describeByte(bytes[position]) : "the end of the text"
        return error(.jsonSyntax, "expected \"\(Character(Unicode.Scalar(byte)))\" but found \(found)")
    }

    @inline(__always)
    private mutating func consumeIf(_ byte: UInt8) throws -> Bool {
        guard try available(1) else { throw error(.jsonSyntax, "the JSON text ends inside an object or array") }
        if bytes[position] == byte { position += 1; return true }
        return false
    }

    private func describeByte(_ byte: UInt8) -> String {
        (0x21 ... 0x7E).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16))"
    }
}
