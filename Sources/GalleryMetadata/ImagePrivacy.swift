/// What an image carries that says where it was taken or who took it, read from its metadata
/// (never from a manifest, which a hostile writer could make claim "none").
public struct ImagePrivacy: Sendable, Hashable, Codable {
    /// Where the image says it was taken: each field as `SOURCE name` ("EXIF GPS", "XMP
    /// photoshop:City", "IPTC City"), in the order found, without repeats.
    public var location: [String] = []
    /// Who took it or with what: serial numbers, the MakerNote, the owner, the artist.
    public var identity: [String] = []
    /// When it was taken, as the image writes it (EXIF `DateTimeOriginal`, else XMP's): reported,
    /// not counted as identity.
    public var captureTime: String?
    /// Metadata that could not be read (a broken EXIF directory, say), with the byte offset:
    /// a reader that cannot see a field cannot say it is absent.
    public var problems: [String] = []

    /// An empty report.
    public init() {}

    /// Whether any location field was found.
    public var carriesLocation: Bool { !location.isEmpty }
    /// Whether any identity field was found.
    public var carriesIdentity: Bool { !identity.isEmpty }

    /// The fields of this report that a strip of `scope` removes: its location, its identity,
    /// or both.
    public func fields(in scope: MetadataScope) -> [String] {
        (scope.removesLocation ? location : []) + (scope.removesIdentity ? identity : [])
    }

    /// What a strip of `scope` reports as removed from an image with this report: its fields
    /// in the scope, and with all metadata, "all other metadata".
    public func removed(by scope: MetadataScope) -> [String] {
        fields(in: scope) + (scope.contains(.allMetadata) ? ["all other metadata"] : [])
    }

    mutating func add(_ field: String, _ category: Category) {
        switch category {
        case .location: if !location.contains(field) { location.append(field) }
        case .identity: if !identity.contains(field) { identity.append(field) }
        }
    }

    mutating func noteCaptureTime(_ text: String?) {
        guard captureTime == nil, let text, !text.isEmpty else { return }
        captureTime = String(text.prefix(64))
    }

    enum Category { case location, identity }
}
