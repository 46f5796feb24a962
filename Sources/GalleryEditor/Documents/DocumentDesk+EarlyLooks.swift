import Foundation
import GalleryDocument
import GalleryFormat
import SystemPackage

// A large gallery's first look while its document opens (FirstLooks): the look itself, the
// list kept beside it, and the first screen's images, from the look until the document is open.
extension DocumentDesk {
    /// The first look kept from an earlier open of `key`'s file as it is now (FirstLooks), for a
    /// page to draw while the document opens; nil when the document is open already (its own
    /// view is as quick), when none is kept for this revision of the file, or for a look of
    /// another size than the one kept.
    package func earlyLook(_ key: String, first: Int) async throws -> [UInt8]? {
        guard let looks, first == looks.count, open[key] == nil, looks.mayHold(key: key) else { return nil }
        let path = FilePath(try await library.path(forKey: key))
        guard let look = await Self.look(looks, key: key, path: path) else { return nil }
        // Opened meanwhile: the page asks for the document's view next, which is its own.
        if open[key] == nil { earlyBlobs[key] = look.blobs }
        return look.view
    }

    @concurrent static func look(_ looks: FirstLooks, key: String, path: FilePath) async -> FirstLooks.Look? {
        looks.look(key: key, path: path)
    }

    /// Images `from ..< from + count` of the list kept with `key`'s early look, for a page drawn
    /// from that look to fill its grid while the document opens; nil when the document is open
    /// (its own pieces are as quick) or no list is kept for the file as it is now.
    package func earlyImages(_ key: String, from: Int, count: Int) async throws -> (json: [UInt8], from: Int, total: Int, token: String)? {
        guard let looks, open[key] == nil else { return nil }
        if let list = earlyLists[key] { return Self.piece(of: list, from: from, count: count) }
        guard looks.mayHold(key: key) else { return nil }
        let path = FilePath(try await library.path(forKey: key))
        guard let list = await Self.list(looks, key: key, path: path) else { return nil }
        if open[key] == nil { earlyLists = [key: list] }
        return Self.piece(of: list, from: from, count: count)
    }

    private static func piece(of list: FirstLooks.KeptList, from: Int, count: Int) -> (json: [UInt8], from: Int, total: Int, token: String) {
        let piece = list.piece(from: from, count: count)
        return (piece.json, piece.from, list.total, list.token)
    }

    @concurrent private static func list(_ looks: FirstLooks, key: String, path: FilePath) async -> FirstLooks.KeptList? {
        looks.list(key: key, path: path)
    }

    /// What the first screen's answer needs of the images `ids` names in `key`'s document: each
    /// one's blob, and the document with those images, to make the thumbnails the cache lacks.
    /// While the document opens, the blobs of the early look a page was given for it (those of
    /// the first screen, which the page asks for first), and no document: nothing is made then,
    /// which would put the open on the page's first paint.
    package func screenImages(_ key: String, of ids: [UUID]) async throws -> ScreenImages {
        if open[key] == nil, earlyBlobs[key] != nil {
            return .early(blobs: Dictionary(ids.compactMap { id in earlyBlob(key, of: id).map { (id, $0) } },
                                            uniquingKeysWith: { first, _ in first }))
        }
        let wanted = Set(ids)
        let document = try await openDocument(key)
        var images: [UUID: GalleryImage] = [:]
        for image in try await document.gallery.images where wanted.contains(image.id) { images[image.id] = image }
        return .opened(document, images: images)
    }

    /// The images of a first screen as `screenImages` finds them.
    package enum ScreenImages: Sendable {
        /// While the document opens: the blobs the early look given for it names. No document,
        /// so nothing is made.
        case early(blobs: [UUID: SHA256Digest])
        /// The open document, and those of the images it has.
        case opened(GalleryDocument, images: [UUID: GalleryImage])

        /// The blob of image `id`, when it is known.
        package func blob(of id: UUID) -> SHA256Digest? {
            switch self {
            case .early(let blobs): blobs[id]
            case .opened(_, let images): images[id]?.sha256
            }
        }
    }

    /// The blob of image `id` of `key` as the early look given for it or the list kept with that
    /// look names it, while the document is not open: a thumbnail the cache holds is then sent
    /// without waiting for the open. Nil otherwise.
    package func earlyBlob(_ key: String, of id: UUID) -> SHA256Digest? {
        guard open[key] == nil else { return nil }
        return earlyBlobs[key]?[id] ?? earlyLists[key]?.blob(of: id)
    }
}
