import FoundationEssentials
import GalleryFormat
import GalleryImaging
import GallerySystem
import SystemPackage

/// Makes a new gallery file from images: the one way every writer of this package turns
/// sources into a gallery (`create`, `convert` of folders, archives and seed JSON, and the
/// editor's new galleries). `add` and the document layer take the same ``SourceImage``s.
///
/// The result is deterministic: the same title, date and images give the same bytes. Nothing
/// is printed; what a person should know arrives as an ``Event``.
public struct GalleryBuilder: Sendable {
    /// The gallery's title (section 6.3: at most 1,000 Unicode scalars, no U+0000; it may be empty).
    public var title: String
    /// Created and modified time. When nil: `$SOURCE_DATE_EPOCH` (the reproducible-builds
    /// convention), else the newest ``SourceImage/modified``, else now.
    public var date: Timestamp?
    /// The document id. When nil, it is derived from the title, the time and the images, so
    /// that building the same gallery twice gives the same id.
    public var id: UUID?
    /// The images, in gallery order. An image given twice is stored once.
    public var images: [SourceImage]
    /// The first image's thumbnail, begun while the images were hashed; nil to make it at write.
    public var thumbnailAhead: ThumbnailAhead?
    /// The index in ``images`` of the image chosen as the cover (a comic's `FrontCover`); nil,
    /// or the first image, for none: the first image is the cover then anyway (section 7), and
    /// the gallery stays at the lowest version (section 8).
    public var cover: Int?

    /// A builder of a gallery with this title and these images, in gallery order. Nothing is
    /// read or written until ``write(to:overwrite:durable:events:)``; a title that breaks the
    /// format's rules is refused there.
    public init(title: String, date: Timestamp? = nil, id: UUID? = nil, images: [SourceImage] = []) {
        self.title = title
        self.date = date
        self.id = id
        self.images = images
    }

    /// What happens while a gallery is built, for a progress display.
    public enum Event: Sendable {
        /// The first image gave no thumbnail (its pixels are damaged or too large); a grey
        /// placeholder of its shape is stored instead. Its header was sound, or it would not
        /// be a ``SourceImage``.
        case placeholderThumbnail(image: String, reason: String)
        /// Bytes of image data written so far, of the total.
        case wrote(bytes: UInt64, of: UInt64)
    }

    /// What was written.
    public struct Result: Sendable {
        /// The gallery as its manifest now records it.
        public var gallery: Gallery
        /// The bytes of image data stored, each blob once.
        public var storedBytes: UInt64
    }

    /// The manifest's content; a pure function of the builder (and, when no date is given,
    /// of `$SOURCE_DATE_EPOCH` or the clock).
    public func gallery() -> Gallery {
        let time = date
            ?? CurrentProcess.environment["SOURCE_DATE_EPOCH"].flatMap { Int64($0) }.map { Timestamp(seconds: $0) }
            ?? images.compactMap { $0.modified.map { Timestamp(seconds: $0) } }.max()
            ?? Timestamp(seconds: WallClock.now.seconds)
        let documentID = id ?? UUID.nameBased(
            namespace: GalleryNamespace.documents,
            name: ([title, time.rfc3339] + images.map(\.sha256.hex)).joined(separator: "\n"))
        let galleryImages = images.enumerated().map { index, image in
            image.galleryImage(id: UUID.nameBased(namespace: documentID, name: "\(index):\(image.sha256.hex)"))
        }
        var gallery = Gallery(id: documentID, revision: Self.provisionalRevision, title: title, created: time,
                              modified: time, images: galleryImages)
        if let cover, cover > 0, galleryImages.indices.contains(cover) { gallery.cover = galleryImages[cover].id }
        gallery.revision = Manifest.contentRevision(of: gallery)
        return gallery
    }

    /// Writes the gallery to `path` through a temporary file renamed into place: never a
    /// partial file. With `overwrite` false an existing file is never replaced; with `durable`
    /// false the flushes to disk are skipped (faster; a crash soon after may lose the new file).
    /// - Throws: ``GalleryBuildError`` when a source changed while it was copied; `GalleryError`
    ///   when the gallery breaks a rule of the format (an over-long title, too many images);
    ///   `FileSystemError` naming what could not be read or written (`alreadyExists` when the
    ///   output exists and may not be replaced).
    @discardableResult
    public func write(to path: String, overwrite: Bool = false, durable: Bool = true,
                      events: ((Event) -> Void)? = nil) throws -> Result {
        let gallery = gallery()
        let bySHA = Dictionary(images.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
        let thumbnail = try thumbnailPNG(events: events)
        let total = storedBytes
        let checked = images.filter { $0.identity != nil }
        try GalleryWriter.write(
            gallery, thumbnail: thumbnail, to: path, overwrite: overwrite, durable: durable,
            progress: { events?(.wrote(bytes: $0, of: total)) },
            beforeCommit: {
                for source in checked where try FileIdentity.of(path: FilePath(source.path)) != source.identity {
                    throw GalleryBuildError(.sourceChanged, path: source.path,
                                            "changed while the gallery was written; nothing was written, try again")
                }
            },
            blob: { image in bySHA[image.sha256]!.blob })
        return Result(gallery: gallery, storedBytes: total)
    }

    /// The bytes of image data a write stores: each distinct image once.
    public var storedBytes: UInt64 {
        var seen = Set<SHA256Digest>()
        return images.reduce(0) { sum, image in seen.insert(image.sha256).inserted ? sum + image.byteSize : sum }
    }

    /// Refuses an output that exists unless it may be replaced: worth asking before the
    /// sources are read, so that a typo costs no work.
    public static func checkOutput(_ path: String, overwrite: Bool) throws {
        if !overwrite, PathKind.of(FilePath(path)) != .missing {
            throw GalleryBuildError(.outputExists, path: path, "already exists")
        }
    }

    /// Replaced by the content revision once the rest of the gallery is known.
    private static let provisionalRevision = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
