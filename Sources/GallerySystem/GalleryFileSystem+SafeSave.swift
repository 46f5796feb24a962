import SystemPackage

extension GalleryFileSystem {
    /// Writes a file so that `path` only ever holds the old bytes or all of the new ones:
    /// `write` fills a temporary file in the same folder, which is flushed to disk (when
    /// `durable`), then renamed over `path` (with `replacing`) or linked to it (never replacing
    /// an existing file). On any failure the temporary file is removed and `path` is untouched.
    ///
    /// `beforeCommit` runs last before the rename, to refuse a result that went stale.
    /// `synchronizesDirectory` flushes the folder's entry too; callers saving many files in one
    /// folder may do that once at the end instead.
    package static func saveSafely(
        to path: FilePath, replacing: Bool, durable: Bool = true, synchronizesDirectory: Bool = true,
        beforeCommit: () throws -> Void = {}, write: (GalleryFile) throws -> Void
    ) throws {
        let directory = path.removingLastComponent()
        let temporary = try GalleryFile.createTemporary(in: directory, prefix: path.lastComponentName)
        var committed = false
        defer { if !committed { remove(temporary.filePath) } }
        try write(temporary)
        if durable { try temporary.synchronize() }
        try beforeCommit()
        if replacing {
            try replace(path, with: temporary.filePath)
        } else {
            try moveNoReplace(temporary.filePath, to: path)
        }
        committed = true
        if durable, synchronizesDirectory { try synchronizeDirectory(directory) }
    }
}
