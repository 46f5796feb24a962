import Foundation
import GalleryBuilder
import GalleryDocument
import GalleryFormat
import GallerySystem
import SystemPackage

// What the document browser changes: new galleries (later: rename, duplicate, trash, import).
extension GalleryLibrary {
    /// Makes an empty gallery titled `title` in the opened folder at `folderIndex`, under a file
    /// name made from the title that no file has yet ("Holiday.imagegallery", "Holiday 2.imagegallery").
    package func createGallery(title: String, folder folderIndex: Int) throws -> GallerySummary {
        let folder = try folder(folderIndex)
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw EditorError.badRequest("a gallery needs a title") }
        let path = try Self.writeUnderFreeName(folder: folder, stem: Self.fileStem(for: trimmed)) { path in
            try GalleryBuilder(title: trimmed).write(to: path)
        }
        let key = Self.key(of: try GalleryFileSystem.resolvedPath(FilePath(path)).string)
        guard let summary = galleries().first(where: { $0.key == key }) else { throw EditorError.noSuchGallery(key) }
        return summary
    }

    /// A file name from a title: no slash, no control or bidi character, no leading dot, at most
    /// 100 characters; "Untitled" when nothing is left.
    static func fileStem(for title: String) -> String {
        var stem = String(String.UnicodeScalarView(title.unicodeScalars.map { scalar in
            let bad = scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
            return bad ? "-" : scalar
        }))
        stem = String(stem.prefix(100))
        // By scalar: ".\u{301}x" starts with the Character ".\u{301}", not ".", yet is a hidden
        // name; and a leading space of any kind goes before the dot behind it is looked at.
        while let first = stem.unicodeScalars.first, first == "." || first.properties.isWhitespace {
            stem.unicodeScalars.removeFirst()
        }
        stem = stem.trimmingCharacters(in: .whitespaces)
        return stem.isEmpty ? "Untitled" : stem
    }
}

// Rename, duplicate and delete: the document browser's actions on files no page has open.
extension GalleryLibrary {
    /// Sets the title of the gallery `key` (through the document layer: locked, saved safely,
    /// a concurrent writer's change kept as a version) and, when `fileName` is given, renames
    /// the file within its folder without replacing another.
    package func rename(_ key: String, title: String?, fileName: String?, options: DocumentOptions) async throws -> GallerySummary {
        var path = try path(forKey: key)
        if let title {
            let document = GalleryDocument(path: path, options: options)
            try await document.open()
            do {
                try await document.setTitle(title)
                _ = try await document.close()
            } catch {
                _ = try? await document.close()
                throw error
            }
        }
        if let fileName {
            let (given, ext) = GalleryFileSystem.splitExtension(fileName)
            let stem = Self.fileStem(for: ext.lowercased() == ".imagegallery" ? given : fileName)
            let target = FilePath(path).removingLastComponent().appending(stem + ".imagegallery")
            if target != FilePath(path) {
                try GalleryFileSystem.moveNoReplace(FilePath(path), to: target)
                path = target.string
            }
        }
        cache[key] = nil
        let newKey = Self.key(of: path)
        guard let summary = galleries().first(where: { $0.key == newKey }) else { throw EditorError.noSuchGallery(newKey) }
        return summary
    }

    /// Writes a copy of the gallery `key` beside it, with a new identity (so that versions and
    /// sync-conflict copies of the two are never confused) and " copy" in its file name and title.
    package func duplicate(_ key: String) throws -> GallerySummary {
        let path = try path(forKey: key)
        let reader = try GalleryReader(path: path)
        var gallery = reader.gallery
        gallery.id = UUID()
        gallery.revision = UUID()
        gallery.title = String((gallery.title + " copy").prefix(1000))
        gallery.modified = max(Timestamp.now, gallery.created)
        let folder = FilePath(path).removingLastComponent()
        let stem = GalleryFileSystem.splitExtension(GalleryFileSystem.fileName(of: path)).stem
        let thumbnail = try reader.thumbnail()
        for attempt in 1 ... 1000 {
            let target = folder.appending(stem + (attempt == 1 ? " copy" : " copy \(attempt)") + ".imagegallery").string
            do {
                try GalleryWriter.write(gallery, thumbnail: thumbnail, to: target, overwrite: false) { image in
                    .entry(reader.archive, try reader.blobEntry(for: image))
                }
            } catch let error as FileSystemError where error.kind == .alreadyExists {
                continue
            }
            let newKey = Self.key(of: target)
            guard let summary = galleries().first(where: { $0.key == newKey }) else { throw EditorError.noSuchGallery(newKey) }
            return summary
        }
        throw EditorError.badRequest("\(folder): every name for a copy of \(stem) is taken")
    }

    /// Moves the gallery `key` to the desktop's Trash (never unlinks it).
    package func trash(_ key: String) throws -> FreedesktopTrash.Trashed {
        let path = try path(forKey: key)
        let trashed = try FreedesktopTrash.trash(path)
        cache[key] = nil
        return trashed
    }
}
