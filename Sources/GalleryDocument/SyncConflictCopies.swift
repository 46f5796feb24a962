import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

/// Copies that sync clients leave beside a file when two machines changed it at once. Each is
/// a version of the document if, and only if, its manifest has the document's id: a file that
/// merely looks like one is left alone.
public enum SyncConflictCopies {
    /// The sync clients whose conflict copies are recognised.
    public enum Client: String, Sendable, Codable {
        /// Syncthing; Nextcloud or ownCloud (one naming); Dropbox.
        case syncthing, nextcloud, dropbox
    }

    /// A conflict copy of the document, found beside it.
    public struct Copy: Sendable, Hashable {
        /// The copy's file.
        public var path: String
        /// The client whose naming the copy's name follows.
        public var client: Client
    }

    /// The client whose naming `name` follows for the document file `document` (both file names).
    ///
    /// - Syncthing: `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT`
    /// - Nextcloud and ownCloud: `NAME (conflicted copy [USER ]YYYY-MM-DD HHMMSS).EXT`
    /// - Dropbox: `NAME (… conflicted copy YYYY-MM-DD).EXT`, the "…" naming a person or machine
    public static func client(of name: String, forDocument document: String) -> Client? {
        // By scalar, as the sync client wrote the name from the document's: a name that is only
        // canonically equivalent to the document's names another file.
        let (base, ext) = GalleryFileSystem.splitExtension(document)
        let scalars = name.unicodeScalars, baseCount = base.unicodeScalars.count, extCount = ext.unicodeScalars.count
        guard scalars.starts(with: base.unicodeScalars), scalars.reversed().starts(with: ext.unicodeScalars.reversed()),
              scalars.count > baseCount + extCount else { return nil }
        let middle = Substring(scalars.dropFirst(baseCount).dropLast(extCount))
        if isSyncthing(middle) { return .syncthing }
        if isNextcloud(middle) { return .nextcloud }
        if isDropbox(middle) { return .dropbox }
        return nil
    }

    // Hand-written matchers: a Regex literal costs milliseconds to build, on every open of a
    // document whose folder holds a name that starts like it.

    /// `.sync-conflict-YYYYMMDD-HHMMSS-DEVICE`, DEVICE 7 of A–Z and 0–9.
    static func isSyncthing(_ middle: Substring) -> Bool {
        guard let rest = middle.strip(prefix: ".sync-conflict-") else { return false }
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].isDigits(8) && parts[1].isDigits(6) && parts[2].count == 7
            && parts[2].allSatisfy { ("A" ... "Z").contains($0) || $0.isASCIIDigit }
    }

    /// ` (conflicted copy [USER ]YYYY-MM-DD HHMMSS)`
    static func isNextcloud(_ middle: Substring) -> Bool {
        guard let inner = middle.strip(prefix: " (conflicted copy ")?.strip(suffix: ")"),
              let user = inner.strip(suffix: 17, matching: { $0.isDate(at: 0) && $0.dropFirst(10).first == " " && $0.dropFirst(11).isDigits(6) })
        else { return false }
        return user.isEmpty || (user.hasSuffix(" ") && !user.contains("(") && !user.contains(")"))
    }

    /// ` ([WHO ]conflicted copy YYYY-MM-DD[ (N)])`
    static func isDropbox(_ middle: Substring) -> Bool {
        guard var inner = middle.strip(prefix: " (")?.strip(suffix: ")") else { return false }
        if inner.hasSuffix(")"), let open = inner.lastIndex(of: "("), inner[inner.index(after: open)...].dropLast().isDigits(nil),
           inner[..<open].hasSuffix(" ") {
            inner = inner[..<inner.index(before: open)]
        }
        guard let who = inner.strip(suffix: 26, matching: { $0.hasPrefix("conflicted copy ") && $0.isDate(at: 16) }) else { return false }
        return who.isEmpty || (who.hasSuffix(" ") && !who.contains("(") && !who.contains(")"))
    }

    /// The conflict copies beside `document` whose manifest names the same document id.
    /// `documentID` saves reading the document again when the caller has it open. Copies come
    /// in name order; each is opened to read its id, so a folder full of lookalikes costs a
    /// read each.
    ///
    /// - Throws: `FileSystemError` when the folder cannot be listed; without `documentID`,
    ///   the reader's error for the document.
    public static func copies(of document: String, documentID: UUID? = nil) throws -> [Copy] {
        let folder = FilePath(document).removingLastComponent()
        let name = GalleryFileSystem.fileName(of: document)
        let id = try documentID ?? GalleryReader(path: document).gallery.id
        var found: [Copy] = []
        for candidate in try GalleryFileSystem.entries(ofFolder: folder.isEmpty ? "." : folder).sorted() {
            guard let client = client(of: candidate, forDocument: name) else { continue }
            let path = folder.appending(candidate).string
            // Unreadable, or another document that happens to share the name: not a version.
            guard let other = try? GalleryReader(path: path), other.gallery.id == id else { continue }
            found.append(Copy(path: path, client: client))
        }
        return found
    }
}

private extension Substring {
    func strip(prefix: String) -> Substring? { hasPrefix(prefix) ? dropFirst(prefix.count) : nil }
    func strip(suffix: String) -> Substring? { hasSuffix(suffix) ? dropLast(suffix.count) : nil }

    /// What comes before the last `count` characters, when those satisfy `matching`.
    func strip(suffix count: Int, matching: (Substring) -> Bool) -> Substring? {
        guard self.count >= count else { return nil }
        return matching(suffix(count)) ? dropLast(count) : nil
    }

    /// Only ASCII digits: exactly `count` of them, or at least one when `count` is nil.
    func isDigits(_ count: Int?) -> Bool {
        (count.map { self.count == $0 } ?? !isEmpty) && allSatisfy(\.isASCIIDigit)
    }

    /// `YYYY-MM-DD` starting `offset` characters in.
    func isDate(at offset: Int) -> Bool {
        let date = dropFirst(offset).prefix(10)
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        return date.count == 10 && parts.count == 3 && parts[0].isDigits(4) && parts[1].isDigits(2) && parts[2].isDigits(2)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0" ... "9").contains(self) }
}
