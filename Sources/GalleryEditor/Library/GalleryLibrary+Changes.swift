import Foundation
import GalleryDocument
import GalleryFormat
import GallerySystem

// What the document browser changes: new galleries (later: rename, duplicate, trash, import).
extension GalleryLibrary {
    /// Makes an empty gallery titled `title` in the opened folder at `folderIndex`, under a file
    /// name made from the title that no file has yet ("Holiday.imagegallery", "Holiday 2.imagegallery").
    package func createGallery(title: String, folder folderIndex: Int) async throws -> GallerySummary {
        let folders = roots.folders
        guard folders.indices.contains(folderIndex) else { throw EditorError.badRequest("there is no opened folder \(folderIndex)") }
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw EditorError.badRequest("a gallery needs a title") }
        let stem = Self.fileStem(for: trimmed)
        for attempt in 1 ... 1000 {
            let path = folders[folderIndex] + "/" + stem + (attempt == 1 ? "" : " \(attempt)") + ".imagegallery"
            do {
                var options = DocumentOptions()
                options.autosaves = false
                let document = try await GalleryDocument.create(at: path, title: trimmed, options: options)
                _ = try await document.close()
                let key = Self.key(of: try GalleryFileSystem.resolvedPath(path))
                guard let summary = galleries().first(where: { $0.key == key }) else { throw EditorError.noSuchGallery(key) }
                return summary
            } catch let error as FileSystemError where error.kind == .alreadyExists {
                continue
            }
        }
        throw EditorError.badRequest("\(folders[folderIndex]): every file name for \"\(stem)\" is taken")
    }

    /// A file name from a title: no slash, no control or bidi character, no leading dot, at most
    /// 100 characters; "Untitled" when nothing is left.
    static func fileStem(for title: String) -> String {
        var stem = String(String.UnicodeScalarView(title.unicodeScalars.map { scalar in
            let bad = scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
            return bad ? "-" : scalar
        }))
        while stem.hasPrefix(".") || stem.hasPrefix(" ") { stem.removeFirst() }
        stem = String(stem.prefix(100)).trimmingCharacters(in: .whitespaces)
        return stem.isEmpty ? "Untitled" : stem
    }
}
