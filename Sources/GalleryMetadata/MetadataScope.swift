/// What a strip removes from an image: its location, its identity fields, or all its metadata.
/// Orientation and the colour profile always stay, and so does everything the picture needs.
public struct MetadataScope: OptionSet, Sendable, Hashable {
    /// The scope's bits: location 1, identity 2, all metadata 4.
    public let rawValue: Int

    /// A scope from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The EXIF GPS directory, XMP's `exif:GPS…` properties and the location names of XMP and
    /// IPTC (city, sublocation, state, country, location shown or created).
    public static let location = MetadataScope(rawValue: 1)
    /// Camera and lens serial numbers, the MakerNote (which often holds them), the camera
    /// owner's name and the artist or creator. Copyright stays.
    public static let identity = MetadataScope(rawValue: 2)
    /// Everything but orientation and the colour profile: EXIF (a minimal one keeps the
    /// orientation), XMP, IPTC, text chunks and comments.
    public static let allMetadata = MetadataScope(rawValue: 4)

    /// Whether location goes: asked for, or part of all metadata.
    public var removesLocation: Bool { contains(.location) || contains(.allMetadata) }
    /// Whether identity fields go: asked for, or part of all metadata.
    public var removesIdentity: Bool { contains(.identity) || contains(.allMetadata) }

    /// The scope's words, as commands print it: "location", "location and identity", "all metadata".
    public var description: String {
        if contains(.allMetadata) { return "all metadata" }
        return [removesLocation ? "location" : nil, removesIdentity ? "identity" : nil]
            .compactMap { $0 }.joined(separator: " and ")
    }

    /// `--strip`'s values: location, identity (which includes location), all, none.
    public init?(option: String) {
        switch option {
        case "location": self = .location
        case "identity": self = [.location, .identity]
        case "all": self = .allMetadata
        case "none": self = []
        default: return nil
        }
    }
}
