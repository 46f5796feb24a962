/// Paths taken apart and compared as the kernel sees them: by their bytes, cut at "/" scalars.
///
/// Never by Character. A Character can hold a "/" together with the combining mark after it
/// ("/\u{301}") or a prepended mark before it ("\u{600}/"), so `lastIndex(of: "/")` on the String
/// passes over that slash: "/a/b/\u{301}c" would be in "/a" and named "b/\u{301}c". And `==` on
/// String is canonical equivalence: "café" in NFC and in NFD are equal Strings but two files.
extension GalleryFileSystem {
    /// The folder part of a path ("" for a bare name, "/" for a name in the root).
    package static func directory(of path: String) -> String {
        let scalars = path.unicodeScalars
        guard let slash = scalars.lastIndex(of: "/") else { return "" }
        return slash == scalars.startIndex ? "/" : String(scalars[..<slash])
    }

    /// The last component of a path (the whole path when it has no slash).
    package static func fileName(of path: String) -> String {
        let scalars = path.unicodeScalars
        guard let slash = scalars.lastIndex(of: "/") else { return path }
        return String(scalars[scalars.index(after: slash)...])
    }

    /// The non-empty components of a path, in order: "/a//b/" is ["a", "b"].
    package static func components(of path: String) -> [String] {
        path.unicodeScalars.split(separator: "/").map { String($0) }
    }

    /// Whether the path starts at the root.
    package static func isAbsolute(_ path: String) -> Bool {
        path.utf8.first == UInt8(ascii: "/")
    }

    /// Whether a file name is hidden, as `ls` judges it: its first byte is ".".
    package static func isHidden(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: ".")
    }

    /// The path without the slashes it ends with; "/" stays "/".
    package static func withoutTrailingSlashes(_ path: String) -> String {
        var scalars = path.unicodeScalars
        while scalars.count > 1, scalars.last == "/" { scalars.removeLast() }
        return String(scalars)
    }

    /// A file name split before its last ".": "trip.imagegallery" is ("trip", ".imagegallery").
    /// A name without a dot, or whose only dot leads it (".hidden"), has no extension.
    package static func splitExtension(_ name: String) -> (stem: String, extension: String) {
        let scalars = name.unicodeScalars
        guard let dot = scalars.lastIndex(of: "."), dot != scalars.startIndex else { return (name, "") }
        return (String(scalars[..<dot]), String(scalars[dot...]))
    }

    /// Whether two paths name the same file by their text: byte for byte, as open(2) reads them.
    package static func isSamePath(_ one: String, _ other: String) -> Bool {
        one.utf8.elementsEqual(other.utf8)
    }
}
