import GalleryDocument
import GalleryFormat
import GalleryMetadata

/// What a strip removed, as the page tells the user: the scope's words, each changed photo
/// with the fields that are gone, and each photo that had to be left as it was, with why.
package struct MetadataRemoval: Codable, Sendable, Hashable {
    /// A photo and what went from it, or why it was left.
    package struct Photo: Codable, Sendable, Hashable {
        package var id: String
        /// 1 for the first.
        package var position: Int
        package var removed: [String]?
        package var reason: String?
    }

    /// "location", "location and identity", "all metadata" or "nothing".
    package var scope: String
    package var imageCount: Int
    package var changed: [Photo]
    package var left: [Photo]
    /// Photos given a neutral file name.
    package var renamed: Int

    /// Nothing removed from `imageCount` photos (a copy shared as it is).
    package init(nothingOf imageCount: Int) {
        scope = "nothing"
        self.imageCount = imageCount
        changed = []
        left = []
        renamed = 0
    }

    /// The removal a document's strip reports.
    package init(_ report: MetadataStripReport, scope: MetadataScope, imageCount: Int) {
        self.scope = scope.isEmpty ? "nothing" : scope.description
        self.imageCount = imageCount
        changed = report.changed.map { Photo(id: $0.id, position: $0.position, removed: $0.removed) }
        left = report.left.map { Photo(id: $0.id, position: $0.position, reason: $0.reason) }
        renamed = report.renamed
    }

    /// The removal a strip of `scope` makes of `gallery`'s images, each as `privacy` (by
    /// SHA-256) has it: the fields `ImageMetadata.strip` names as removed, for a writer that
    /// strips as it copies and reports only counts (the web gallery's).
    package init(predicting scope: MetadataScope, of gallery: Gallery, privacy: [SHA256Digest: ImagePrivacy]) {
        self.scope = scope.isEmpty ? "nothing" : scope.description
        imageCount = gallery.images.count
        left = []
        renamed = 0
        changed = scope.isEmpty ? [] : gallery.images.enumerated().compactMap { index, image in
            guard let found = privacy[image.sha256], !found.fields(in: scope).isEmpty else { return nil }
            return Photo(id: image.id.manifestString, position: index + 1, removed: found.removed(by: scope))
        }
    }

    /// The removal in the view's JSON writer's terms (keys in byte order).
    var value: CanonicalJSONWriter.Value {
        typealias V = CanonicalJSONWriter.Value
        func photo(_ photo: Photo) -> V {
            .object([("id", .string(photo.id)), ("position", .integer(Int64(photo.position)))]
                + (photo.reason.map { [("reason", V.string($0))] } ?? [])
                + (photo.removed.map { [("removed", V.array($0.map { .string($0) }))] } ?? []))
        }
        return .object([("changed", .array(changed.map(photo))), ("imageCount", .integer(Int64(imageCount))),
                        ("left", .array(left.map(photo))), ("renamed", .integer(Int64(renamed))), ("scope", .string(scope))])
    }
}
