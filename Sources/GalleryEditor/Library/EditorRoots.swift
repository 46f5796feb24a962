import GallerySystem
import SystemPackage

/// The paths `imagegallery edit` was given, resolved: the only places the editor reads or writes.
package struct EditorRoots: Sendable, Hashable {
    package struct Root: Sendable, Hashable {
        /// The path with every symbolic link resolved.
        package var path: String
        /// A folder whose galleries are listed, or one gallery file.
        package var isFolder: Bool
    }

    package var roots: [Root]

    /// Resolves each of `paths` (a folder or a gallery file); errors name the path.
    package init(paths: [String]) throws {
        var roots: [Root] = []
        for path in paths {
            let resolved = try GalleryFileSystem.resolvedPath(FilePath(path))
            switch PathKind.of(resolved) {
            case .directory: roots.append(Root(path: resolved.string, isFolder: true))
            case .regularFile: roots.append(Root(path: resolved.string, isFolder: false))
            case .other, .missing: throw EditorError.notAFolderOrGallery(path)
            }
        }
        var seen = Set<Root>()
        self.roots = roots.filter { seen.insert($0).inserted }
    }

    /// The folders where new galleries go: the folder roots, else the folders of the gallery roots.
    package var folders: [String] {
        var seen = Set<String>()
        let all = roots.map { $0.isFolder ? $0.path : GalleryFileSystem.directory(of: $0.path) }
        return all.filter { seen.insert($0).inserted }
    }

    /// Whether `resolved` (a path with links resolved) is a root gallery or directly inside a root
    /// folder. Galleries are listed one level deep, so nothing deeper is ever served.
    package func contains(_ resolved: String) -> Bool {
        roots.contains { root in
            GalleryFileSystem.isSamePath(root.isFolder ? GalleryFileSystem.directory(of: resolved) : resolved, root.path)
        }
    }

    /// A stable name for the set, for the record of a running server.
    package var identity: String { roots.map { ($0.isFolder ? "d:" : "f:") + $0.path }.sorted().joined(separator: "\u{0}") }
}

/// Why the editor refused to start or to do something; each names its place.
package enum EditorError: Error, Sendable, CustomStringConvertible {
    case notAFolderOrGallery(String)
    case noSuchGallery(String)
    case outsideOpenedPaths(String)
    case badRequest(String)
    case cannotListen(String)

    package var description: String {
        switch self {
        case .notAFolderOrGallery(let path): "\(path): not a folder or a gallery file"
        case .noSuchGallery(let key): "no gallery \(key) in the opened folders (it may have been moved or deleted)"
        case .outsideOpenedPaths(let path): "\(path): outside the folders the editor was opened on"
        case .badRequest(let reason): reason
        case .cannotListen(let reason): "cannot listen: \(reason)"
        }
    }
}
