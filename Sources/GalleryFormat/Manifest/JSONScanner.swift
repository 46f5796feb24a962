#if canImport(Glibc)
import func Glibc.free
import func Glibc.malloc
import func Glibc.memcmp
import func Glibc.realloc
#endif

/// A strict, allocation-light JSON pull parser over bytes (RFC 8259).
///
/// It validates as it goes — UTF-8, escapes, lone surrogates, nesting depth, duplicate keys —
/// and hands strings out as byte ranges so that the manifest decoder can read UUIDs and
/// hashes without building Swift strings. Errors carry the byte offset and JSON pointer.
///
/// Package-wide (not public: no user of the library needs it) so that other strict JSON the
/// toolkit reads (the seed apps' files) goes through the same rules and the same words as the
/// manifest: one parser, not two. Other modules reach it through `read(_:maxDepth:entry:_:)`
/// (`JSONScanner+Reading.swift`), which owns the bytes' lifetime; byte ranges, windows and
/// streaming stay internal.
package struct JSONScanner: ~Copyable {
    /// The text: all of it, or when streaming a window of it that starts at `base`.
    private(set) var bytes: UnsafeRawBufferPointer
    var position = 0
    /// Streaming: where further text comes from, the window's own memory, and the offset in
    /// the text of the window's first byte. Offsets in errors are in the whole text.
    private var source: (any JSONChunkSource)?
    private var storage: UnsafeMutableRawBufferPointer?
    private(set) var base = 0
    /// The offset in the whole text of the read position: where a message about the value
    /// about to be read, or just read, should point.
    package var offset: Int { base + position }
    var depth = 0
    /// Objects and arrays nested deeper are refused: the scanner recurses, and this bounds its stack.
    package let maxDepth: Int
    /// Members one object may have: the duplicate-key check remembers every name of an object,
    /// so this bounds its memory (five million short names would take over 200 MiB).
    package let maxMembers: Int
    /// What errors name as the place of the text (`Location.entry`); nil for a file of its own.
    let entry: String?
    /// Where the value being read sits, kept as raw keys and indexes and only rendered as a
    /// JSON pointer when an error needs it.
    var path: [PathItem] = []

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
    package enum Number: Sendable, Hashable {
        case integer(Int64)
        /// A fraction, an exponent, or an integer too large for 64 bits (±infinity past Double's range).
        case other(Double)

        /// The nearest Double, for callers that want a measure rather than a count.
        package var doubleValue: Double {
            switch self {
            case .integer(let value): Double(value)
            case .other(let value): value
            }
        }
    }

    /// What the next value is, from its first byte.
    package enum Kind: Sendable, Hashable { case object, array, string, number, bool, null }

    /// The RFC 6901 pointer of the value being read ("" at the top level), for messages. Built
    /// on demand: the scanner keeps raw keys and indexes, not strings.
    package var pointer: String { pointer(appending: nil) }

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
        guard length > 0 else { return candidates.firstIndex(of: []) }
        // The first byte tells the known keys of equal length apart before any call.
        let first = bytes[key.start]
        for (position, candidate) in candidates.enumerated() where candidate.count == length && candidate[0] == first {
            if candidate.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress! + key.start, length) }) == 0 {
                return position
            }
        }
        return nil
    }
}

/// Where a streamed JSON text comes from, chunk by chunk; nil at its end.
protocol JSONChunkSource: AnyObject {
    func nextChunk() throws -> [UInt8]?
}
