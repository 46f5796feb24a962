/// Where in a gallery file a problem was found. Parts that do not apply are nil.
public struct Location: Sendable, Hashable, Codable {
    /// The gallery file's path.
    public var file: String?
    /// The ZIP entry's name.
    public var entry: String?
    /// A byte offset: into the file for container problems, into the uncompressed text for
    /// problems of the manifest.
    public var offset: UInt64?
    /// RFC 6901 pointer into `manifest.json`.
    public var jsonPointer: String?

    /// A place from the parts that are known.
    public init(file: String? = nil, entry: String? = nil, offset: UInt64? = nil, jsonPointer: String? = nil) {
        self.file = file
        self.entry = entry
        self.offset = offset
        self.jsonPointer = jsonPointer
    }

    /// `FILE: ENTRY @ OFFSET: POINTER`, leaving out what is unknown.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        var place = ""
        if let entry { place = entry }
        if let offset { place += place.isEmpty ? "@ \(offset)" : " @ \(offset)" }
        if !place.isEmpty { parts.append(place) }
        if let jsonPointer { parts.append(jsonPointer.isEmpty ? "(manifest root)" : jsonPointer) }
        return parts.joined(separator: ": ")
    }
}

/// A problem with a gallery file or its content, with its stable diagnostic code and its place.
public struct GalleryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule broken: a stable id with its severity.
    public var code: DiagnosticCode
    /// What is wrong, in words, with the values found (not fit for matching: match on ``code``).
    public var message: String
    /// Where in the file.
    public var location: Location
    /// A lower-level cause (a system error's text, a zlib message), when there is one.
    public var cause: String?
    /// The error this one wraps, kept whole (a `FileSystemError` whose kind a caller can look
    /// at), when it wraps one; ``cause`` holds its text. Equality and hashing go by ``cause``.
    public var underlying: (any Error)?

    /// An error from its parts. With an `underlying` error and no `cause`, the cause is the
    /// underlying error's text.
    public init(_ code: DiagnosticCode, _ message: String, location: Location = Location(), cause: String? = nil,
                underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.cause = cause ?? underlying.map { "\($0)" }
        self.underlying = underlying
    }

    /// Equal when the code, message, place and cause's text are (the underlying errors are
    /// compared by that text).
    public static func == (lhs: GalleryError, rhs: GalleryError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.location == rhs.location && lhs.cause == rhs.cause
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(location)
        hasher.combine(cause)
    }

    /// The ``code``'s severity.
    public var severity: Severity { code.severity }

    /// `FILE: ENTRY @ OFFSET: IG-XXX-NNN: message (cause)`.
    public var description: String {
        let place = location.description
        var text = place.isEmpty ? "" : place + ": "
        text += "\(code.id): \(message)"
        if let cause { text += " (\(cause))" }
        return text
    }

    /// The same error, placed in a file.
    public func inFile(_ path: String) -> GalleryError {
        var copy = self
        if copy.location.file == nil { copy.location.file = path }
        return copy
    }
}
