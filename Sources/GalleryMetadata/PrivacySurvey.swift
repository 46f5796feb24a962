import GalleryFormat

/// What each image of a gallery carries, read from the blobs themselves (a manifest's word is
/// never taken for it), and the one-line summary the commands print.
public struct PrivacySurvey: Sendable {
    /// One image's findings, in gallery order.
    public struct Entry: Sendable, Encodable {
        /// 1 is the first image.
        public var position: Int
        /// The image's id, as the manifest gives it.
        public var id: String
        /// The original file name, which often holds the capture date and time.
        public var filename: String?
        /// The location fields found (``ImagePrivacy/location``).
        public var location: [String]
        /// The identity fields found (``ImagePrivacy/identity``).
        public var identity: [String]
        /// When it was taken, as the image says.
        public var captureTime: String?
        /// What could not be read, and where.
        public var problems: [String]
    }

    /// The largest blob read for its metadata; a larger one is a problem in its entry.
    public static let maximumBlobBytes: UInt64 = 1 << 30

    /// Every image's findings, in gallery order.
    public var entries: [Entry] = []

    /// Reads every image of `reader`'s gallery (each distinct blob once), calling `progress`
    /// with the number done.
    public init(_ reader: GalleryReader, progress: (Int) -> Void = { _ in }) {
        var seen: [SHA256Digest: ImagePrivacy] = [:]
        for (index, image) in reader.gallery.images.enumerated() {
            let privacy = seen[image.sha256] ?? Self.privacy(of: image, in: reader)
            seen[image.sha256] = privacy
            entries.append(Entry(position: index + 1, id: image.id.manifestString, filename: image.filename,
                                 location: privacy.location, identity: privacy.identity,
                                 captureTime: privacy.captureTime, problems: privacy.problems))
            progress(index + 1)
        }
    }

    static func privacy(of image: GalleryImage, in reader: GalleryReader) -> ImagePrivacy {
        do {
            return ImageMetadata.privacy(of: try Self.bytes(of: image, in: reader), type: image.mediaType)
        } catch {
            var privacy = ImagePrivacy()
            privacy.problems.append("\(error)")
            return privacy
        }
    }

    /// A blob's bytes, checked against the manifest as they are read.
    package static func bytes(of image: GalleryImage, in reader: GalleryReader) throws -> [UInt8] {
        guard image.byteSize <= maximumBlobBytes else {
            throw MetadataError("\(image.path) is \(image.byteSize) bytes, more than the \(maximumBlobBytes) read for metadata")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(min(image.byteSize, 64 << 20)))
        try reader.readBlob(image) { bytes += $0 }
        return bytes
    }

    /// Images that carry a location.
    public var withLocation: Int { entries.count { !$0.location.isEmpty } }
    /// Images that carry identity fields.
    public var withIdentity: Int { entries.count { !$0.identity.isEmpty } }
    /// Images whose original file name the gallery keeps.
    public var withFilename: Int { entries.count { $0.filename != nil } }
    /// Images whose metadata could not be read in full.
    public var withProblems: Int { entries.count { !$0.problems.isEmpty } }

    /// "12 of 40 images carry a location; 3 carry identity fields; 40 keep their original file names".
    public var summary: String {
        let total = entries.count
        func carry(_ count: Int) -> String { count == 1 ? "carries" : "carry" }
        var parts = ["\(withLocation) of \(total) image\(total == 1 ? "" : "s") \(carry(withLocation)) a location",
                     "\(withIdentity) \(carry(withIdentity)) identity fields",
                     "\(withFilename) keep \(withFilename == 1 ? "its" : "their") original file name\(withFilename == 1 ? "" : "s")"]
        if withProblems > 0 { parts.append("\(withProblems) could not be read in full") }
        return parts.joined(separator: "; ")
    }
}

extension PrivacySurvey {
    /// The survey as `validate --privacy` reports it: for each image that carries a location,
    /// identity fields, or metadata that cannot be read, one finding (IG-PRV-001 to 003) at
    /// its entry and manifest pointer; errors rather than warnings with `asErrors`.
    public func diagnostics(file: String, gallery: Gallery, asErrors: Bool) -> [GalleryError] {
        var found: [GalleryError] = []
        for entry in entries {
            let image = gallery.images[entry.position - 1]
            let place = Location(file: file, entry: image.path, jsonPointer: "/images/\(entry.position - 1)")
            func add(_ code: DiagnosticCode, _ message: String) {
                found.append(GalleryError(asErrors ? code.raised(to: .error) : code, message, location: place))
            }
            let name = "image \(entry.position)" + (entry.filename.map { " (\($0))" } ?? "")
            if !entry.location.isEmpty {
                add(.imageCarriesLocation, "\(name) carries a location: " + entry.location.joined(separator: ", "))
            }
            if !entry.identity.isEmpty {
                add(.imageCarriesIdentity, "\(name) carries identity fields: " + entry.identity.joined(separator: ", "))
            }
            for problem in entry.problems { add(.imageMetadataUnreadable, "\(name): \(problem)") }
        }
        return found
    }
}
