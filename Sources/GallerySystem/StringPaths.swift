import SystemPackage

// The String forms of the file API, while the layers above move to `FilePath` (issue 29). Each
// turns its text into a `FilePath` and calls the one implementation, so there is no second
// behaviour: a path is normalised as `FilePath` does (repeated and trailing slashes dropped).
// A module that carries `FilePath` no longer calls these; the file goes when nothing does.

extension GalleryFileSystem {
    package static func replace(_ destination: String, with source: String) throws {
        try replace(FilePath(destination), with: FilePath(source))
    }

    package static func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try rename(FilePath(source), to: FilePath(destination))
    }

    package static func moveNoReplace(_ source: String, to destination: String) throws {
        try moveNoReplace(FilePath(source), to: FilePath(destination))
    }

    package static func exchange(_ a: String, _ b: String) throws -> Bool { try exchange(FilePath(a), FilePath(b)) }

    package static func remove(_ path: String) { remove(FilePath(path)) }

    package static func removeIfPresent(_ path: String) throws(FileSystemError) { try removeIfPresent(FilePath(path)) }

    package static func resolvedPath(_ path: String) throws -> String { try resolvedPath(FilePath(path)).string }

    package static func linkCount(_ path: String) throws -> Int { try linkCount(FilePath(path)) }

    package static func checkReadable(_ path: String) throws(FileSystemError) { try checkReadable(FilePath(path)) }

    package static func isWritable(_ path: String) -> Bool { isWritable(FilePath(path)) }

    package static func isExecutable(_ path: String) -> Bool { isExecutable(FilePath(path)) }

    package static func contents(of path: String) throws(FileSystemError) -> [UInt8] { try contents(of: FilePath(path)) }

    package static func writeWhole(_ bytes: [UInt8], to path: String, permissions: FilePermissions? = nil) throws(FileSystemError) {
        try writeWhole(bytes, to: FilePath(path), permissions: permissions)
    }

    package static func makeFolder(_ path: String, permissions: FilePermissions = folderPermissions) throws(FileSystemError) {
        try makeFolder(FilePath(path), permissions: permissions)
    }

    package static func makeFolders(_ path: String, permissions: FilePermissions = folderPermissions) throws(FileSystemError) {
        try makeFolders(FilePath(path), permissions: permissions)
    }

    package static func entries(ofFolder path: String) throws(FileSystemError) -> [String] {
        try entries(ofFolder: FilePath(path))
    }

    package static func descendants(ofFolder folder: String) throws(FileSystemError) -> [String] {
        try descendants(ofFolder: FilePath(folder)).map(\.string)
    }

    package static func makeTemporaryFolder(_ template: String) throws(FileSystemError) -> String {
        try makeTemporaryFolder(FilePath(template)).string
    }

    package static func synchronizeDirectory(_ path: String) throws { try synchronizeDirectory(FilePath(path)) }

    package static func synchronizeFileSystem(of path: String) throws { try synchronizeFileSystem(of: FilePath(path)) }

    package static func removeTree(_ path: String) throws(FileSystemError) { try removeTree(FilePath(path)) }

    package static func availableBytes(on path: String) throws(FileSystemError) -> UInt64 {
        try availableBytes(on: FilePath(path))
    }

    package static func saveSafely(
        to path: String, replacing: Bool, durable: Bool = true, synchronizesDirectory: Bool = true,
        beforeCommit: () throws -> Void = {}, write: (GalleryFile) throws -> Void
    ) throws {
        try saveSafely(to: FilePath(path), replacing: replacing, durable: durable, synchronizesDirectory: synchronizesDirectory,
                       beforeCommit: beforeCommit, write: write)
    }
}

extension GalleryFile {
    /// `openForReading(_:followingLinks:)` for a path given as text.
    public static func openForReading(_ path: String, followingLinks: Bool = true) throws -> GalleryFile {
        try openForReading(FilePath(path), followingLinks: followingLinks)
    }

    /// `create(_:permissions:)` for a path given as text.
    public static func create(_ path: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws -> GalleryFile {
        try create(FilePath(path), permissions: permissions)
    }

    package static func openForOverwriting(_ path: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws -> GalleryFile {
        try openForOverwriting(FilePath(path), permissions: permissions)
    }

    package static func openForWritingInPlace(_ path: String) throws -> (file: GalleryFile, created: Bool) {
        try openForWritingInPlace(FilePath(path))
    }

    package static func createTemporary(in directory: String, prefix: String) throws -> GalleryFile {
        try createTemporary(in: FilePath(directory), prefix: prefix)
    }

    package static func createAnonymous(in directory: String, naming path: String) throws(FileSystemError) -> GalleryFile {
        try createAnonymous(in: FilePath(directory), naming: FilePath(path))
    }

    package static func createUnnamed(in directory: String, for path: String) throws -> (file: GalleryFile, isNamed: Bool) {
        try createUnnamed(in: FilePath(directory), for: FilePath(path))
    }

    package func link(as path: String) throws { try link(as: FilePath(path)) }

    package func copyAttributes(of source: String) throws { try copyAttributes(of: FilePath(source)) }
}

extension FileStatus {
    package static func of(_ path: String, followingLinks: Bool) throws(FileSystemError) -> FileStatus {
        try of(FilePath(path), followingLinks: followingLinks)
    }

    package static func exists(_ path: String) throws(FileSystemError) -> Bool { try exists(FilePath(path)) }
}

extension PathKind {
    package static func of(_ path: String) -> PathKind { of(FilePath(path)) }
}

extension FileIdentity {
    /// `of(path:)` for a path given as text.
    public static func of(path: String) throws -> FileIdentity { try of(path: FilePath(path)) }
}

extension LockFile {
    package static func open(_ path: String) throws(FileSystemError) -> LockFile { try open(FilePath(path)) }

    package static func createNew(_ path: String, record: [UInt8]) -> Bool { createNew(FilePath(path), record: record) }

    package static func openExisting(_ path: String) -> LockFile? { openExisting(FilePath(path)) }
}
