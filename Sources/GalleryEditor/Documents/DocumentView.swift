import GalleryDocument
import GalleryFormat
import GallerySystem

/// A document as the gallery page shows it: everything the page draws, nothing it would have
/// to trust (the server decides what an edit means).
package struct DocumentView: Codable, Sendable {
    /// Only what the page draws: a view of 10,000 images is sent whole on every open, so each
    /// field costs the first paint (the SHA-256 and size, which the page never shows, cost a third).
    package struct Image: Codable, Sendable, Hashable {
        package var id: String
        package var filename: String?
        package var caption: String?
        package var width: Int
        package var height: Int
        package var mediaType: String
    }

    package var key: String
    package var fileName: String
    package var title: String
    /// The document layer's state: "normal", "in conflict", "saving error", "editing disabled".
    package var state: String
    /// Unsaved edits (the status shows Edited).
    package var edited: Bool
    /// A save is under way (the status shows Saving…, for as long as it takes).
    package var saving: Bool
    package var canUndo: Bool
    package var canRedo: Bool
    /// What the user must know: why the last save failed, or who holds the file.
    package var message: String?
    package var images: [Image]
    /// The id of the image chosen as the gallery's cover, nil (left out, as `message` is) while
    /// none is: the first image stands for the gallery then.
    package var cover: String?
    /// While in conflict: the versions waiting for a decision (ours, a sync client's copy).
    package var versions: [Version]
    /// After a merge: what it could not settle, each saying which side was kept.
    package var mergeConflicts: [String]?
    /// After a strip (the reply to that edit only): what went from which photo.
    package var metadataRemoved: MetadataRemoval?

    package struct Version: Codable, Sendable, Hashable {
        package var id: String
        /// "ours", "theirs" or "syncCopy".
        package var origin: String
        package var title: String
        package var imageCount: Int
        /// Milliseconds since 1970.
        package var time: Int64
        package var host: String
        /// Images of the version whose bytes survived nowhere.
        package var missingImages: Int
    }

    init(key: String, document: GalleryDocument, saving: Bool) async throws {
        self.key = key
        fileName = GalleryFileSystem.fileName(of: document.path)
        let gallery = try await document.gallery
        title = gallery.title
        let state = await document.state
        self.state = state.description
        edited = await document.hasUnsavedChanges
        self.saving = saving
        canUndo = await document.canUndo
        canRedo = await document.canRedo
        switch state {
        case .savingError:
            message = (await document.saveError).map { "Not saved: \($0)" }
        case .editingDisabled:
            if let holder = await document.lockHolder {
                message = "Read only: \(holder) is editing this gallery. Close it there, then reopen it here."
            } else {
                message = "Read only: \(await document.readOnlyReason ?? "this gallery cannot be written")."
            }
        case .inConflict:
            message = "Someone else changed this file while you had unsaved edits; your edits are kept as a version."
        case .normal, .closed:
            message = nil
        }
        versions = ((try? await document.unresolvedVersions()) ?? []).map { version in
            Version(id: version.id.uuidString.lowercased(), origin: "\(version.origin)", title: version.title,
                    imageCount: version.imageCount, time: Int64(version.time.timeIntervalSince1970 * 1000), host: version.host,
                    missingImages: version.missingImages.count)
        }
        images = gallery.images.map { image in
            Image(id: image.id.manifestString, filename: image.filename, caption: image.caption, width: image.width,
                  height: image.height, mediaType: image.mediaType.rawValue)
        }
        cover = gallery.cover.map(\.manifestString)
    }
}

// The view as the page reads it. Written by the format's own JSON writer: `JSONEncoder` took
// 30 ms of a 10,000-image gallery's first paint. Keys in byte order (the writer's rule); a
// member that is nil is left out, as `Codable` leaves it out.
extension DocumentView {
    package var json: [UInt8] {
        typealias V = CanonicalJSONWriter.Value
        func optional(_ key: String, _ text: String?) -> [(String, V)] { text.map { [(key, .string($0))] } ?? [] }
        let images: [V] = images.map { image in
            .object(optional("caption", image.caption) + optional("filename", image.filename) + [
                ("height", .integer(Int64(image.height))), ("id", .string(image.id)),
                ("mediaType", .string(image.mediaType)), ("width", .integer(Int64(image.width))),
            ])
        }
        let versions: [V] = versions.map { version in
            .object([("host", .string(version.host)), ("id", .string(version.id)),
                     ("imageCount", .integer(Int64(version.imageCount))),
                     ("missingImages", .integer(Int64(version.missingImages))), ("origin", .string(version.origin)),
                     ("time", .integer(version.time)), ("title", .string(version.title))])
        }
        let members: [(String, V)] = [("canRedo", .bool(canRedo)), ("canUndo", .bool(canUndo)),
                                      ]
            + optional("cover", cover)
            + [("edited", .bool(edited)), ("fileName", .string(fileName)), ("images", .array(images)), ("key", .string(key))]
            + (mergeConflicts.map { [("mergeConflicts", V.array($0.map { .string($0) }))] } ?? [])
            + optional("message", message)
            + (metadataRemoved.map { [("metadataRemoved", $0.value)] } ?? [])
            + [("saving", .bool(saving)), ("state", .string(state)), ("title", .string(title)), ("versions", .array(versions))]
        var writer = CanonicalJSONWriter(capacity: 256 + self.images.count * 120, compact: true)
        writer.write(.object(members))
        return writer.bytes
    }
}
