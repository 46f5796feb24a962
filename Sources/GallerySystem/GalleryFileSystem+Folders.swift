import SystemPackage

extension GalleryFileSystem {
    /// The permissions a new folder is asked for, which the kernel then takes the umask off:
    /// what `mkdir` in a shell gives.
    package static let folderPermissions = FilePermissions(rawValue: 0o777)

    /// Makes one folder. A name already taken is an error of kind `.alreadyExists`, which
    /// callers that only need the folder to be there let pass.
    package static func makeFolder(_ path: FilePath, permissions: FilePermissions = folderPermissions) throws(FileSystemError) {
        try Syscalls.mkdir(path.string, permissions).get(path: path.string, operation: "create the folder")
    }

    /// Makes a folder and any missing parents, each with `permissions`; folders already there
    /// are left as they are.
    package static func makeFolders(_ path: FilePath, permissions: FilePermissions = folderPermissions) throws(FileSystemError) {
        var prefix: FilePath = path.isAbsolute ? "/" : "."
        for component in path.components {
            prefix.append(component)
            do throws(FileSystemError) {
                try makeFolder(prefix, permissions: permissions)
            } catch where error.kind == .alreadyExists {
                continue
            }
        }
    }

    /// The names of the entries in a folder, without "." and "..", in no particular order.
    package static func entries(ofFolder path: FilePath) throws(FileSystemError) -> [String] {
        try Syscalls.folderEntries(path.string).get(path: path.string, operation: "list the folder")
    }

    /// The paths, relative to `folder`, of everything under it at any depth (what `find` lists:
    /// hidden names too; a symbolic link is listed, not followed). A folder below that cannot be
    /// listed is passed over, as `find` goes on past one; `folder` itself must be listable.
    package static func descendants(ofFolder folder: FilePath) throws(FileSystemError) -> [FilePath] {
        var found: [FilePath] = []
        var pending = try entries(ofFolder: folder).map { FilePath($0) }
        while let relative = pending.popLast() {
            found.append(relative)
            let path = folder.pushing(relative)
            guard (try? FileStatus.stat(path, followingLinks: false))?.type == .directory,
                  let inside = try? entries(ofFolder: path) else { continue }
            pending += inside.map { relative.appending($0) }
        }
        return found
    }

    /// Makes a new folder named `template` with its trailing XXXXXX replaced (mkdtemp: mode
    /// 0700, so only the user can look in); returns its path.
    package static func makeTemporaryFolder(_ template: FilePath) throws(FileSystemError) -> FilePath {
        FilePath(try Syscalls.makeTemporaryFolder(template.string).get(path: template.removingLastComponent().string,
                                                                      operation: "create a folder in"))
    }

    /// Flushes a directory's entries, so a rename into it survives a crash.
    package static func synchronizeDirectory(_ path: FilePath) throws {
        let folder = try openFolder(path)
        defer { try? folder.close() }
        try Syscalls.fsync(folder).get(path: path.string, operation: "fsync directory")
    }

    /// Flushes everything written to the file system that holds `path` (a folder): one journal
    /// commit for a batch of new files, where an fsync of each would make one per file.
    package static func synchronizeFileSystem(of path: FilePath) throws {
        let folder = try openFolder(path)
        defer { try? folder.close() }
        try Syscalls.syncfs(folder).get(path: path.string, operation: "flush the file system of")
    }

    private static func openFolder(_ path: FilePath) throws(FileSystemError) -> FileDescriptor {
        try withErrorNaming(path.string, "open directory") {
            try FileDescriptor.open(path.isEmpty ? "." : path, .readOnly, options: [.directory, .closeOnExec])
        }
    }
}
