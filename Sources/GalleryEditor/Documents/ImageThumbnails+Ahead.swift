import GalleryDocument
import GalleryFormat

// A gallery the editor was started for, opened with an empty thumbnail cache: between the open
// and the page's asking for its first screen (its layout, 0.1–0.2 s at 100,000 images) the
// processors would wait; the first images' grid thumbnails are made then, and the page's first
// screen finds them made or being made (`making`) instead of asking for each one after another.
extension ImageThumbnails {
    /// About a first screen of photos in a large window.
    static let aheadCount = 40

    /// Makes the grid thumbnails of the first `aheadCount` images of `document` that the cache
    /// lacks, in order, as many at a time as a page's own requests may be. A failure (a document
    /// closed meanwhile, a damaged photo) only leaves that one for the page to ask for.
    package func makeAhead(for document: GalleryDocument) async {
        guard let images = try? await document.gallery.images.prefix(Self.aheadCount) else { return }
        await withTaskGroup(of: Void.self) { group in
            for image in images where cachedGrid(sha256: image.sha256.description) == nil {
                group.addTask {
                    _ = try? await self.grid(sha256: image.sha256.description) { try await document.imageData(image.id) }
                }
            }
        }
    }
}
