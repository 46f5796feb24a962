public import GalleryImageHeaders

// What the format says of each image type (GalleryImageHeaders says what the type is): the
// version that first holds it, and the names a user may give it.
extension MediaType {
    /// The first format version that holds this type: a gallery with any image of a 2.0 type
    /// is written as 2.0, and readers of format 1 refuse it (section 8).
    public var since: FormatVersion {
        switch self {
        case .jpeg, .png: .one
        case .webp, .gif, .avif, .heic: .two
        }
    }

    /// The type a user names: its extension or name ("jpg", "JPEG", "webp", "heic"), or the
    /// media type itself, in any case; nil for anything else.
    public init?(named text: some StringProtocol) {
        let name = text.trimmingWhitespace().lowercased()
        guard let type = Self.allCases.first(where: { [$0.fileExtension, $0.name.lowercased(), $0.rawValue].contains(name) })
                ?? (name == "jpeg" ? .jpeg : nil) else { return nil }
        self = type
    }
}
