import SystemPackage

extension GalleryFileSystem {
    /// The permissions a new folder is asked for, which the kernel then takes the umask off:
    /// what `mkdir` in a shell gives.
    package static let folderPermissions = FilePermissions(rawValue: 0o777)

    /// Makes one folder. A name already taken is an error of kind `.alreadyExists`, which
    /// callers that only need the folder to be there let pass.
    package static func makeFolder(_ path: String, permissions: FilePermissions = folderPermissions) throws(FileSystemError) {
        try Syscalls.mkdir(path, permissions).get(path: path, operation: "create the folder")
    }

    /// Makes a folder and any missing parents, each with `permissions`; folders already there
    /// are left as they are.
    package static func makeFolders(_ path: String, permissions: FilePermissions = folderPermissions) throws(FileSystemError) {
        var prefix = isAbsolute(path) ? "" : "."
        for component in components(of: path) {
            prefix += "/" + component
            do throws(FileSystemError) {
                try makeFolder(prefix, permissions: permissions)
            } catch where error.kind == .alreadyExists {
                continue
            }
        }
    }

    /// The names of the entries in a folder, without "." and "..", in no particular order.
    package static func entries(ofFolder path: String) throws(FileSystemError) -> [String] {
        try Syscalls.folderEntries(path).get(path: path, operation: "list the folder")
    }

    /// The paths, relative to `folder`, of everything under it at any depth (what `find` lists:
    /// hidden names too; a symbolic link is listed, not followed). A folder below that cannot be
    /// listed is passed over, as `find` goes on past one; `folder` itself must be listable.
    package static func descendants(ofFolder folder: String) throws(FileSystemError) -> [String] {
        let base = withTrailingSlash(folder)
        var found: [String] = []
        var pending = try entries(ofFolder: folder)
        while let relative = pending.popLast() {
            found.append(relative)
            guard (try? FileStatus.stat(base + relative, followingLinks: false))?.type == .directory,
                  let inside = try? entries(ofFolder: base + relative) else { continue }
            pending += inside.map { relative + "/" + $0 }
        }
        return found
    }

    /// Makes a new folder named `template` with its trailing XXXXXX replaced (mkdtemp: mode
    /// 0700, so only the user can look in); returns its path.
    package static func makeTemporaryFolder(_ template: String) throws(FileSystemError) -> String {
        try Syscalls.makeTemporaryFolder(template).get(path: directory(of: template), operation: "create a folder in")
    }

    /// Flushes a directory's entries, so a rename into it survives a crash.
    package static func synchronizeDirectory(_ path: String) throws {
        let folder = try openFolder(path)
        defer { try? folder.close() }
        try Syscalls.fsync(folder).get(path: path, operation: "fsync directory")
    }

    /// Flushes everything written to the file system that holds `path` (a folder): one journal
    /// commit for a batch of new files, where an fsync of each would make one per file.
    package static func synchronizeFileSystem(of path: String) throws {
        let folder = try openFolder(path)
        defer { try? folder.close() }
        try Syscalls.syncfs(folder).get(path: path, operation: "flush the file system of")
    }

    private static func openFolder(_ path: String) throws(FileSystemError) -> FileDescriptor {
        try withErrorNaming(path, "open directory") {
            try (path.isEmpty ? "." : path).withCString { try FileDescriptor.open($0, .readOnly, options: [.directory, .closeOnExec]) }
        }
    }
}
