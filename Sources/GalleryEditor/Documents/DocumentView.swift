import GalleryDocument
import GalleryFormat
import GallerySystem

/// A document as the gallery page shows it: everything the page draws, nothing it would have
/// to trust (the server decides what an edit means).
package struct DocumentView: Encodable, Sendable {
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
    /// The document's images as it holds them. The page's form of them (`images`) is made only
    /// when written, and `imagesJSON` spares even that: at 100,000 images the list is 12 MB,
    /// sent again with every event of the document (an edit, a save's start and end).
    package var galleryImages: [GalleryImage]
    package var images: [Image] {
        galleryImages.map { image in
            Image(id: image.id.manifestString, filename: image.filename, caption: image.caption, width: image.width,
                  height: image.height, mediaType: image.mediaType.rawValue)
        }
    }
    /// The `images` member as `json` writes it, when the desk holds it from an earlier view of
    /// the same images.
    package var imagesJSON: [UInt8]?
    /// Which list `images` is: a number the desk gives each list it writes, never twice in a run.
    /// Events leave out a list the pages have had (`leavesOutImages`) and name it by this.
    package var imagesVersion = 0
    /// Whether `json` leaves `images` out: an event of a change that moved no image (a save's start
    /// and end, a title), whose list at 100,000 images would be 12 MB to send and parse again.
    package var leavesOutImages = false
    /// A first look (`windowed(first:)`): `images` holds the first this many images, and the rest
    /// go as their sizes alone (`laterSizes`), which is all the page needs to lay out the grid.
    package var window: Int?
    /// The id of the image chosen as the gallery's cover, nil (left out, as `message` is) while
    /// none is: the first image stands for the gallery then.
    package var cover: String?
    /// While in conflict: the versions waiting for a decision (ours, a sync client's copy).
    package var versions: [Version]
    /// After a merge: what it could not settle, each saying which side was kept.
    package var mergeConflicts: [String]?
    /// After a strip (the reply to that edit only): what went from which photo.
    package var metadataRemoved: MetadataRemoval?
    /// A look kept from an earlier open of the same file (FirstLooks), given while the document
    /// opens: the page shows it, asks for the document's own view at once and edits nothing
    /// before that view is in. Left out when false.
    package var early = false
    /// An early look's: the revision of the file it was kept from (`FirstLooks.token(of:)`). A
    /// piece of the list with the same token is that file's list, and the document's own while it
    /// has no unsaved change (DocumentDesk.images(_:from:count:)).
    package var fileToken: String?

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
        galleryImages = gallery.images
        cover = gallery.cover.map(\.manifestString)
    }

    /// The view a fresh open of a file holding `gallery` shows when no one else holds it: nothing
    /// edited, nothing to undo, nothing in conflict (what FirstLooks keeps).
    init(key: String, fileName: String, gallery: Gallery) {
        self.key = key
        self.fileName = fileName
        title = gallery.title
        state = DocumentState.normal.description
        (edited, saving, canUndo, canRedo) = (false, false, false, false)
        galleryImages = gallery.images
        cover = gallery.cover.map(\.manifestString)
        versions = []
    }
}

// The view as the page reads it. Written by the format's own JSON writer: `JSONEncoder` took
// 30 ms of a 10,000-image gallery's first paint. Keys in byte order (the writer's rule); a
// member that is nil is left out, as `Codable` leaves it out.
extension DocumentView {
    package var json: [UInt8] {
        typealias V = CanonicalJSONWriter.Value
        func optional(_ key: String, _ text: String?) -> [(String, V)] { text.map { [(key, .string($0))] } ?? [] }
        let versions: [V] = versions.map { version in
            .object([("host", .string(version.host)), ("id", .string(version.id)),
                     ("imageCount", .integer(Int64(version.imageCount))),
                     ("missingImages", .integer(Int64(version.missingImages))), ("origin", .string(version.origin)),
                     ("time", .integer(version.time)), ("title", .string(version.title))])
        }
        // The members before `images` and those after it, as two objects joined around it.
        let windowed = window.map { $0 < galleryImages.count } ?? false
        let before: [(String, V)] = [("canRedo", .bool(canRedo)), ("canUndo", .bool(canUndo))]
            + optional("cover", cover)
            + (early ? [("early", .bool(true))] : [])
            + [("edited", .bool(edited)), ("fileName", .string(fileName))]
            + optional("fileToken", fileToken)
            + (windowed ? [("imageCount", .integer(Int64(galleryImages.count)))] : [])
        // The members after `images` up to `laterSizes` (a windowed view's), and those after that.
        let middle: [(String, V)] = [("imagesVersion", .integer(Int64(imagesVersion))), ("key", .string(key))]
        let after: [(String, V)] = (mergeConflicts.map { [("mergeConflicts", V.array($0.map { .string($0) }))] } ?? [])
            + optional("message", message)
            + (metadataRemoved.map { [("metadataRemoved", $0.value)] } ?? [])
            + [("saving", .bool(saving)), ("state", .string(state)), ("title", .string(title)), ("versions", .array(versions))]
        // Objects written apart and joined without their braces: `{…` `,"images":[…],` `…` `}`.
        func members(_ object: [(String, V)]) -> ArraySlice<UInt8> {
            var writer = CanonicalJSONWriter(capacity: 256, compact: true)
            writer.write(.object(object))
            return writer.bytes.dropFirst().dropLast()
        }
        var bytes = [UInt8]()
        bytes.append(0x7B)
        bytes += members(before)
        if !leavesOutImages {
            let images: [UInt8]
            if windowed, let window {
                images = Self.imagesJSON(galleryImages.prefix(window))
            } else {
                images = imagesJSON ?? Self.imagesJSON(galleryImages)
            }
            bytes.reserveCapacity(bytes.count + images.count + 512)
            bytes += Array(#","images":"#.utf8)
            bytes += images
        }
        bytes.append(0x2C)
        bytes += members(middle)
        if windowed, let window {
            bytes += Array(#","laterSizes":"#.utf8)
            bytes += Self.sizesJSON(galleryImages.dropFirst(window))
        }
        bytes.append(0x2C)
        bytes += members(after)
        bytes.append(0x7D)
        return bytes
    }

    /// The view's first look: the first `count` images whole and the sizes of the rest. At
    /// 100,000 images it is 1 MB where the whole list is 12 MB to write, send and parse before
    /// the first photo shows; the page asks for the whole list once its first screen is drawn.
    package func windowed(first count: Int) -> DocumentView {
        var view = self
        view.window = count
        if count < galleryImages.count {
            // Not a list a page can take for another view's (events name lists by this).
            view.imagesVersion = 0
            view.imagesJSON = nil
        }
        return view
    }

    /// `[width, height, width, height, …]` of `images`.
    static func sizesJSON(_ images: ArraySlice<GalleryImage>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(images.count * 9 + 2)
        out.append(0x5B)
        for image in images {
            if out.count > 1 { out.append(0x2C) }
            CanonicalJSONWriter.appendInteger(Int64(image.width), to: &out)
            out.append(0x2C)
            CanonicalJSONWriter.appendInteger(Int64(image.height), to: &out)
        }
        out.append(0x5D)
        return out
    }

    /// Encodes what `json` writes, for callers that embed the view in a `Codable` answer.
    private enum CodingKeys: String, CodingKey {
        case key, fileName, title, state, edited, saving, canUndo, canRedo, message, images, imagesVersion, cover, versions,
             mergeConflicts, metadataRemoved
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(fileName, forKey: .fileName)
        try container.encode(title, forKey: .title)
        try container.encode(state, forKey: .state)
        try container.encode(edited, forKey: .edited)
        try container.encode(saving, forKey: .saving)
        try container.encode(canUndo, forKey: .canUndo)
        try container.encode(canRedo, forKey: .canRedo)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encode(images, forKey: .images)
        try container.encode(imagesVersion, forKey: .imagesVersion)
        try container.encodeIfPresent(cover, forKey: .cover)
        try container.encode(versions, forKey: .versions)
        try container.encodeIfPresent(mergeConflicts, forKey: .mergeConflicts)
        try container.encodeIfPresent(metadataRemoved, forKey: .metadataRemoved)
    }
}
