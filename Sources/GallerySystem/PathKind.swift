import SystemPackage

/// What kind of thing a path names, following symbolic links.
package enum PathKind: Sendable {
    case regularFile, directory, other, missing

    /// `missing` for anything that cannot be looked at, not only for a name that is not there.
    package static func of(_ path: FilePath) -> PathKind {
        guard let status = try? FileStatus.stat(path, followingLinks: true) else { return .missing }
        switch status.type {
        case .regular: return .regularFile
        case .directory: return .directory
        default: return .other
        }
    }
}
