public import GalleryImageHeaders

// An image header's structure problem as the diagnostic code validation reports: the header
// reader (GalleryImageHeaders) names the problem, and the format gives it its code here, so that
// the reader does not depend on the format's diagnostics.
extension ImageHeaderError {
    /// Set when the header reads but the structure behind it does not hold together, found
    /// without decoding a pixel (an AVIF or HEIC item's data past the file, a PNG without
    /// `IDAT`), or a declared size that the coded image's own header contradicts (an `ispe`
    /// unlike its HEVC or AV1 sequence header): the id of that problem (IG-BLB-017 to IG-BLB-019).
    /// Nil for a header that cannot be read, whose id is its type's
    /// (``DiagnosticCode/headerUnreadable(_:)``).
    public var diagnostic: DiagnosticCode? {
        get { problem.map(DiagnosticCode.init(_:)) }
        set { problem = newValue.flatMap { code in StructureProblem.allCases.first { DiagnosticCode($0) == code } } }
    }

    /// An error from its parts, its structure problem given as its diagnostic code (one of
    /// IG-BLB-017 to IG-BLB-019; any other is not kept).
    public init(_ message: String, offset: UInt64? = nil, kind: ImageKind? = nil, diagnostic: DiagnosticCode?) {
        self.init(message, offset: offset, kind: kind)
        self.diagnostic = diagnostic
    }
}

extension DiagnosticCode {
    /// The code of a structure problem behind an image header.
    public init(_ problem: ImageHeaderError.StructureProblem) {
        switch problem {
        case .heifItemsBroken: self = .heifItemsBroken
        case .pngWithoutImageData: self = .pngWithoutImageData
        case .declaredSizeContradicted: self = .declaredSizeContradicted
        }
    }
}
