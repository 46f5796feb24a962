import Foundation
import GalleryFormat

/// Copies that sync clients leave beside a file when two machines changed it at once. Each is
/// a version of the document if, and only if, its manifest has the document's id: a file that
/// merely looks like one is left alone.
public enum SyncConflictCopies {
    public enum Client: String, Sendable, Codable {
        case syncthing, nextcloud, dropbox
    }

    public struct Copy: Sendable, Hashable {
        public var path: String
        public var client: Client
    }

    /// The client whose naming `name` follows for the document file `document` (both file names).
    ///
    /// - Syncthing: `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT`
    /// - Nextcloud and ownCloud: `NAME (conflicted copy [USER ]YYYY-MM-DD HHMMSS).EXT`
    /// - Dropbox: `NAME (… conflicted copy YYYY-MM-DD).EXT`, the "…" naming a person or machine
    public static func client(of name: String, forDocument document: String) -> Client? {
        let (base, ext) = split(document)
        guard name.hasPrefix(base), name.hasSuffix(ext), name.count > base.count + ext.count else { return nil }
        let middle = String(name.dropFirst(base.count).dropLast(ext.count))
        if middle.wholeMatch(of: /\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}/) != nil { return .syncthing }
        if middle.wholeMatch(of: /\ \(conflicted copy (?:[^()]+ )?\d{4}-\d{2}-\d{2} \d{6}\)/) != nil { return .nextcloud }
        if middle.wholeMatch(of: /\ \((?:[^()]+ )?conflicted copy \d{4}-\d{2}-\d{2}(?: \(\d+\))?\)/) != nil { return .dropbox }
        return nil
    }

    /// The conflict copies beside `document` whose manifest names the same document id.
    /// `documentID` saves reading the document again when the caller has it open.
    public static func copies(of document: String, documentID: UUID? = nil) throws -> [Copy] {
        let folder = GalleryFileSystem.directory(of: document)
        let name = GalleryFileSystem.fileName(of: document)
        let id = try documentID ?? GalleryReader(path: document).gallery.id
        var found: [Copy] = []
        for candidate in try FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder).sorted() {
            guard let client = client(of: candidate, forDocument: name) else { continue }
            let path = (folder.isEmpty ? "" : folder + "/") + candidate
            // Unreadable, or another document that happens to share the name: not a version.
            guard let other = try? GalleryReader(path: path), other.gallery.id == id else { continue }
            found.append(Copy(path: path, client: client))
        }
        return found
    }

    /// "trip.imagegallery" is ("trip", ".imagegallery"); a name without a dot has no extension.
    static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}
