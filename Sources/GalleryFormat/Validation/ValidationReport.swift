/// What validating one file found.
public struct ValidationReport: Sendable {
    /// The file validated, as it was named.
    public var path: String
    /// In the order the checks found them, which is the same for the same file every time.
    public var diagnostics: [GalleryError]
    /// Set when the file could not be read at all (missing, a folder, no permission): that is
    /// an input/output problem, not a verdict on the file's content.
    public var readFailure: String?

    /// A report from its parts.
    public init(path: String, diagnostics: [GalleryError], readFailure: String? = nil) {
        self.path = path
        self.diagnostics = diagnostics
        self.readFailure = readFailure
    }

    /// No fatal or error diagnostic (warnings and notes allowed).
    public var isValid: Bool { readFailure == nil && !diagnostics.contains { $0.severity >= .error } }

    /// How many findings have exactly this severity.
    public func count(_ severity: Severity) -> Int { diagnostics.filter { $0.severity == severity }.count }
}

/// What the validator may do; the defaults are the spec's.
public struct ValidationOptions: Sendable {
    /// The bounds on what a file may declare; the format's by default.
    public var limits: GalleryLimits
    /// Largest `thumbnail.png` read (its dimensions are checked from the header first).
    public var maxThumbnailBytes: Int

    /// Set for `--deep`: every blob and the thumbnail are decoded by it.
    public var pixelChecker: (any PixelChecker)?
    /// Entries of one file read on all cores. Off when many files are checked at once: the
    /// files themselves then keep the cores busy, and threads per file would only cost.
    public var readsEntriesInParallel = true
    /// Largest deflated image inflated into memory for `--deep` (stored ones are read in place).
    public var maxDeflatedImageBytes = 64 << 20

    /// Options with the format's limits and no pixel checks, unless given.
    public init(limits: GalleryLimits = .default, maxThumbnailBytes: Int = 16 << 20,
                pixelChecker: (any PixelChecker)? = nil) {
        self.limits = limits
        self.maxThumbnailBytes = maxThumbnailBytes
        self.pixelChecker = pixelChecker
    }
}
