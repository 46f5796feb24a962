#if canImport(Glibc)
import Glibc
#endif

/// A strict, allocation-light JSON pull parser over bytes (RFC 8259).
///
/// It validates as it goes — UTF-8, escapes, lone surrogates, nesting depth, duplicate keys —
/// and hands strings out as byte ranges so that the manifest decoder can read UUIDs and
/// hashes without building Swift strings. Errors carry the byte offset and JSON pointer.
///
/// Public so that other strict JSON the toolkit reads (the seed apps' files) goes through the
/// same rules and the same words as the manifest: one parser, not two. Others reach it through
/// `read(_:maxDepth:entry:_:)` (`JSONScanner+Reading.swift`), which owns the bytes' lifetime;
/// byte ranges, windows and streaming stay internal.
public struct JSONScanner: ~Copyable {
    /// The text: all of it, or when streaming a window of it that starts at `base`.
    private(set) var bytes: UnsafeRawBufferPointer
    private(set) var position = 0
    /// Streaming: where further text comes from, the window's own memory, and the offset in
    /// the text of the window's first byte. Offsets in errors are in the whole text.
    private var source: (any JSONChunkSource)?
    private var storage: UnsafeMutableRawBufferPointer?
    private(set) var base = 0
    /// The offset in the whole text of the read position: where a message about the value
    /// about to be read, or just read, should point.
    public var offset: Int { base + position }
    private var depth = 0
    /// Objects and arrays nested deeper are refused: the scanner recurses, and this bounds its stack.
    public let maxDepth: Int
    /// Members one object may have: the duplicate-key check remembers every name of an object,
    /// so this bounds its memory (five million short names would take over 200 MiB).
    public let maxMembers: Int
    /// What errors name as the place of the text (`Location.entry`); nil for a file of its own.
    let entry: String?
    /// Where the value being read sits, kept as raw keys and indexes and only rendered as a
    /// JSON pointer when an error needs it.
    private(set) var path: [PathItem] = []

    enum PathItem {
        case key(RawString)
        case index(Int)
        case name(String)
    }

    init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, maxMembers: Int = GalleryLimits.default.maxObjectMembers,
         entry: String? = "manifest.json") {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.maxMembers = maxMembers
        self.entry = entry
    }

    /// Reads text as `source` delivers it, holding only a window: what has not been read yet,
    /// plus what was read since the last `discardConsumed()`.
    init(streaming source: any JSONChunkSource, maxDepth: Int, maxMembers: Int = GalleryLimits.default.maxObjectMembers,
         entry: String? = "manifest.json") {
        self.source = source
        self.maxDepth = maxDepth
        self.maxMembers = maxMembers
        self.entry = entry
        let storage = UnsafeMutableRawBufferPointer(start: malloc(1 << 20), count: 1 << 20)
        self.storage = storage
        bytes = UnsafeRawBufferPointer(rebasing: storage[0 ..< 0])
    }

    deinit { free(storage?.baseAddress) }

    /// True when `count` bytes from the read position are there, pulling more from the
    /// source when streaming; false only at the end of the text.
    @inline(__always)
    mutating func available(_ count: Int) throws -> Bool {
        if position + count <= bytes.count { return true }
        return try pull(atLeast: count)
    }

    private mutating func pull(atLeast count: Int) throws -> Bool {
        while position + count > bytes.count {
            guard let source, let chunk = try source.nextChunk() else {
                source = nil
                return false
            }
            append(chunk)
        }
        return true
    }

    private mutating func append(_ chunk: [UInt8]) {
        guard var storage else { return }
        let used = bytes.count
        if used + chunk.count > storage.count {
            // realloc moves a large block by remapping its pages: a long token never needs its
            // bytes twice over, as allocate-and-copy would while both blocks exist.
            let capacity = max(storage.count * 2, used + chunk.count)
            guard let grown = realloc(storage.baseAddress, capacity) else { fatalError("out of memory") }
            storage = UnsafeMutableRawBufferPointer(start: grown, count: capacity)
            self.storage = storage
        }
        chunk.withUnsafeBytes { storage.baseAddress!.advanced(by: used).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        bytes = UnsafeRawBufferPointer(rebasing: storage[0 ..< used + chunk.count])
    }

    /// Streaming: forgets the text before the read position. Every `RawString` read so far is
    /// invalid afterwards, so callers do this only between values they have finished with.
    mutating func discardConsumed() {
        guard let storage, position >= 1 << 20 else { return }
        // Keys on the path would point into the forgotten text: keep them as strings.
        path = path.map { item in
            if case .key(let raw) = item { return .name(decodeString(raw)) }
            return item
        }
        let kept = bytes.count - position
        storage.baseAddress!.copyMemory(from: storage.baseAddress! + position, byteCount: kept)
        base += position
        position = 0
        bytes = UnsafeRawBufferPointer(rebasing: storage[0 ..< kept])
    }

    /// A string's bytes between the quotes, still escaped when `hasEscapes`.
    struct RawString {
        var start: Int
        var end: Int
        var hasEscapes: Bool
        var count: Int { end - start }
    }

    /// A number as read: integers exactly, so that sizes and counts never pass through a Double.
    public enum Number: Sendable, Hashable {
        case integer(Int64)
        /// A fraction, an exponent, or an integer too large for 64 bits (±infinity past Double's range).
        case other(Double)

        /// The nearest Double, for callers that want a measure rather than a count.
        public var doubleValue: Double {
            switch self {
            case .integer(let value): Double(value)
            case .other(let value): value
            }
        }
    }

    /// What the next value is, from its first byte.
    public enum Kind: Sendable, Hashable { case object, array, string, number, bool, null }

    /// The RFC 6901 pointer of the value being read ("" at the top level), for messages. Built
    /// on demand: the scanner keeps raw keys and indexes, not strings.
    public var pointer: String { pointer(appending: nil) }

    func pointer(appending member: String?) -> String {
        var tokens = path.map { item -> String in
            switch item {
            case .key(let raw): decodeString(raw)
            case .index(let index): String(index)
            case .name(let name): name
            }
        }
        if let member { tokens.append(member) }
        return JSONPointer.render(tokens)
    }

    /// `at` is a position in the window, like `RawString.start`.
    func error(_ code: DiagnosticCode, _ message: String, at offset: Int? = nil, pointer: String? = nil) -> GalleryError {
        GalleryError(code, message, location: Location(entry: entry, offset: UInt64(base + (offset ?? position)),
                                                       jsonPointer: pointer ?? self.pointer))
    }

    /// The index of the candidate equal to the key, comparing bytes (decoding only escaped keys).
    func match(_ key: RawString, _ candidates: [[UInt8]]) -> Int? {
        if key.hasEscapes {
            let text = Array(decodeString(key).utf8)
            return candidates.firstIndex(of: text)
        }
        let length = key.count
        for (position, candidate) in candidates.enumerated() where candidate.count == length {
            if candidate.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress! + key.start, length) }) == 0 {
                return position
            }
        }
        return nil
    }

    // MARK: - Structure

    mutating func skipWhitespace() throws {
        while try available(1) {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Steps over a UTF-8 byte order mark at the start of the text. Not JSON, but editors write
    /// one and RFC 8259 (section 8.1) lets a parser ignore it; the manifest, written by this
    /// toolkit, never has one, so only callers that read hand-edited text call this.
    public mutating func skipByteOrderMark() {
        guard base == 0, position == 0, (try? available(3)) == true,
              bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return }
        position = 3
    }

    /// The kind of the next value, after whitespace, without reading it. Throws at the end of the
    /// text and at a byte no value starts with.
    public mutating func peekKind() throws -> Kind {
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
    /// (No default: a call without the label is the public, String-keyed `readObject(_:)`.)
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
    public mutating func readArray(_ element: (inout JSONScanner, Int) throws -> Void) throws {
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
    public mutating func skipValue() throws {
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
    public mutating func finish() throws {
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

    private mutating func expect(_ byte: UInt8) throws {
        guard try available(1), bytes[position] == byte else {
            let found = position < bytes.count ? describeByte(bytes[position]) : "the end of the text"
            throw error(.jsonSyntax, "expected \"\(Character(Unicode.Scalar(byte)))\" but found \(found)")
        }
        position += 1
    }

    private mutating func consumeIf(_ byte: UInt8) throws -> Bool {
        guard try available(1) else { throw error(.jsonSyntax, "the JSON text ends inside an object or array") }
        if bytes[position] == byte { position += 1; return true }
        return false
    }

    private func describeByte(_ byte: UInt8) -> String {
        (0x21 ... 0x7E).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16))"
    }

    // MARK: - Scalars

    /// Reads `true` or `false`.
    public mutating func readBool() throws -> Bool {
        try skipWhitespace()
        if try matchLiteral("true") { return true }
        if try matchLiteral("false") { return false }
        throw error(.jsonSyntax, "invalid literal")
    }

    /// Reads `null`.
    public mutating func readNull() throws {
        try skipWhitespace()
        guard try matchLiteral("null") else { throw error(.jsonSyntax, "invalid literal") }
    }

    private mutating func matchLiteral(_ literal: StaticString) throws -> Bool {
        let count = literal.utf8CodeUnitCount
        guard try available(count) else { return false }
        for i in 0 ..< count where bytes[position + i] != literal.utf8Start[i] { return false }
        position += count
        return true
    }

    /// Reads a number, checked against the grammar (no leading zeros, digits after "." and "e").
    public mutating func readNumber() throws -> Number {
        try skipWhitespace()
        let start = position
        var negative = false
        if try available(1), bytes[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        let digitsStart = position
        var magnitude: UInt64 = 0
        var overflow = false
        while try available(1), bytes[position] >= 0x30, bytes[position] <= 0x39 {
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(bytes[position] - 0x30))
            overflow = overflow || o1 || o2
            magnitude = m2
            position += 1
        }
        let digitCount = position - digitsStart
        guard digitCount > 0 else { throw error(.jsonSyntax, "a number needs digits", at: start) }
        if digitCount > 1, bytes[digitsStart] == UInt8(ascii: "0") {
            throw error(.jsonSyntax, "a number may not have leading zeros", at: start)
        }
        var isInteger = true
        if try available(1), bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let fractionStart = position
            while try available(1), bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            guard position > fractionStart else { throw error(.jsonSyntax, "a fraction needs digits", at: start) }
        }
        if try available(1), bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if try available(1), bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            let exponentStart = position
            while try available(1), bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            guard position > exponentStart else { throw error(.jsonSyntax, "an exponent needs digits", at: start) }
        }
        if isInteger, !overflow {
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)) }
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start ..< position]), as: UTF8.self)
        return .other(Double(text) ?? .infinity)
    }

    /// Reads a string's extent, validating UTF-8 and escapes, without decoding it.
    mutating func readRawString() throws -> RawString {
        try skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = position
        var hasEscapes = false
        var asciiOnly = true
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control byte or non-ASCII.
            while position + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                if Self.needsAttention(word) { break }
                position += 8
            }
            guard try available(1) else { throw error(.jsonSyntax, "a string is not closed", at: start - 1) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                throw error(.jsonSyntax, "a string contains an unescaped control character (0x\(String(byte, radix: 16)))")
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try checkEscape()
                continue
            }
            if byte >= 0x80 { asciiOnly = false }
            position += 1
        }
        let end = position
        position += 1
        if !asciiOnly, !UTF8Validation.isValid(UnsafeRawBufferPointer(rebasing: bytes[start ..< end])) {
            throw error(.jsonEncoding, "a string is not valid UTF-8", at: start)
        }
        return RawString(start: start, end: end, hasEscapes: hasEscapes)
    }

    /// True when any byte of the word is `"`, `\`, below 0x20 or 0x80 and above (SWAR test).
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & high }
        let quote = zeroByte(word ^ (ones &* 0x22))
        let backslash = zeroByte(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & high
        return (quote | backslash | control | (word & high)) != 0
    }

    /// Checks one escape at `position` (the backslash) and steps over it.
    private mutating func checkEscape() throws {
        let at = position
        guard try available(2) else { throw error(.jsonSyntax, "a string ends inside an escape") }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            guard try available(6), let unit = hex4(at: position + 2) else { throw error(.jsonSyntax, "a \\u escape needs four hex digits", at: at) }
            position += 6
            if (0xD800 ... 0xDBFF).contains(unit) {
                guard try available(6), bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
                      let low = hex4(at: position + 2), (0xDC00 ... 0xDFFF).contains(low)
                else { throw error(.jsonEncoding, "a high surrogate escape is not followed by a low one", at: at) }
                position += 6
            } else if (0xDC00 ... 0xDFFF).contains(unit) {
                throw error(.jsonEncoding, "a low surrogate escape stands alone", at: at)
            }
        default:
            throw error(.jsonSyntax, "invalid escape \"\\\(Character(Unicode.Scalar(bytes[position + 1])))\"", at: at)
        }
    }

    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in offset ..< offset + 4 {
            let c = bytes[i]
            let nibble: UInt32
            switch c {
            case 0x30 ... 0x39: nibble = UInt32(c - 0x30)
            case 0x61 ... 0x66: nibble = UInt32(c - 0x61 + 10)
            case 0x41 ... 0x46: nibble = UInt32(c - 0x41 + 10)
            default: return nil
            }
            value = value << 4 | nibble
        }
        return value
    }

    /// The Swift string of an already validated raw string.
    func decodeString(_ raw: RawString) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[raw.start ..< raw.end])
        guard raw.hasEscapes else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.start
        while i < raw.end {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "\\") else { out.append(byte); i += 1; continue }
            let kind = bytes[i + 1]
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var unit = hex4(at: i + 2)!
                if (0xD800 ... 0xDBFF).contains(unit) {
                    let low = hex4(at: i + 8)!
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                out += Array(String(Character(Unicode.Scalar(unit)!)).utf8)
                i += 6
                continue
            default: out.append(kind)
            }
            i += 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number of Unicode scalars the raw string decodes to, without decoding it.
    func scalarCount(_ raw: RawString) -> Int {
        var count = 0
        var i = raw.start
        while i < raw.end {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\\") {
                // A surrogate pair's two escapes make one scalar.
                if bytes[i + 1] == UInt8(ascii: "u"), let unit = hex4(at: i + 2), (0xD800 ... 0xDBFF).contains(unit) {
                    i += 12
                } else {
                    i += bytes[i + 1] == UInt8(ascii: "u") ? 6 : 2
                }
                count += 1
                continue
            }
            if byte & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count
    }

    /// True when the raw string holds U+0000, escaped (only an escape can: the text itself
    /// cannot carry a control byte).
    func containsNUL(_ raw: RawString) -> Bool {
        guard raw.hasEscapes else { return false }
        var i = raw.start
        while i < raw.end {
            guard bytes[i] == UInt8(ascii: "\\") else { i += 1; continue }
            if bytes[i + 1] == UInt8(ascii: "u"), hex4(at: i + 2) == 0 { return true }
            i += bytes[i + 1] == UInt8(ascii: "u") ? 6 : 2
        }
        return false
    }

    func rawBytes(_ raw: RawString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[raw.start ..< raw.end])
    }
}

/// RFC 6901 pointers.
enum JSONPointer {
    static func render(_ tokens: [String]) -> String {
        var out = ""
        for token in tokens {
            out += "/"
            for character in token {
                switch character {
                case "~": out += "~0"
                case "/": out += "~1"
                default: out.append(character)
                }
            }
        }
        return out
    }
}

/// UTF-8 validation per RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF.
public enum UTF8Validation {
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool { firstInvalid(bytes) == nil }

    /// The offset of the first byte that starts no valid UTF-8 sequence, or nil when all are
    /// valid. The scanner checks strings as it reads them but names the string's start; a
    /// caller that wants the very byte at fault checks the whole text with this first.
    public static func firstInvalidByte(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { firstInvalid($0) }
    }

    @inline(__always)
    static func firstInvalid(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            func cont(_ k: Int) -> UInt8? { i + k < n && bytes[i + k] & 0xC0 == 0x80 ? bytes[i + k] : nil }
            switch b0 {
            case 0xC2 ... 0xDF:
                guard cont(1) != nil else { return i }
                i += 2
            case 0xE0 ... 0xEF:
                guard let b1 = cont(1), cont(2) != nil else { return i }
                if b0 == 0xE0, b1 < 0xA0 { return i }  // overlong
                if b0 == 0xED, b1 >= 0xA0 { return i }  // surrogate
                i += 3
            case 0xF0 ... 0xF4:
                guard let b1 = cont(1), cont(2) != nil, cont(3) != nil else { return i }
                if b0 == 0xF0, b1 < 0x90 { return i }
                if b0 == 0xF4, b1 >= 0x90 { return i }
                i += 4
            default:
                return i
            }
        }
        return nil
    }
}

/// Where a streamed JSON text comes from, chunk by chunk; nil at its end.
protocol JSONChunkSource: AnyObject {
    func nextChunk() throws -> [UInt8]?
}
