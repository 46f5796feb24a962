import FoundationEssentials
import SystemPackage

/// The desktop's Trash, as the freedesktop.org Trash specification 1.0 describes it, so that a
/// gallery deleted in the editor shows in the file manager's Trash and can be restored from
/// there (or by moving it back by hand): never unlinked.
///
/// A file on the home file system goes to `$XDG_DATA_HOME/Trash` (`~/.local/share/Trash`);
/// one elsewhere to `$topdir/.Trash-$uid` at the top of its own file system, since a trash
/// must be on the file's file system for the move to be a rename. The `.trashinfo` is made
/// first, with O_EXCL, which is how implementations claim a name without racing each other.
package enum FreedesktopTrash {
    /// Where a trashed file went.
    package struct Trashed: Sendable, Hashable {
        /// The file's new path, under the trash's `files/`.
        package var path: String
        /// Its `info/NAME.trashinfo`.
        package var infoPath: String
        /// Where it was.
        package var originalPath: String
    }

    /// Moves `path` (a file, links not followed) to the trash of its file system.
    package static func trash(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                              now: Date = Date()) throws -> Trashed {
        let given = FilePath(path)
        let original = given.isAbsolute ? given : FilePath(FileManager.default.currentDirectoryPath).pushing(given)
        let status = try FileStatus.of(original, followingLinks: false)
        let home = environment["XDG_DATA_HOME"].flatMap { GalleryFileSystem.isAbsolute($0) ? FilePath($0) : nil }
            ?? UserFolders.home(environment).appending(".local/share")
        var trash = home.appending("Trash")
        var recordedPath = original
        try makeTrashFolders(trash)
        if try FileStatus.of(trash, followingLinks: true).device != status.device {
            let top = try topDirectory(of: original, device: status.device)
            trash = top.appending(".Trash-\(Syscalls.userID)")
            // The specification lets a top-directory trash record the path relative to the top.
            _ = recordedPath.removePrefix(top)
            try makeTrashFolders(trash)
        }
        let name = original.lastComponentName
        let info = infoText(path: recordedPath.string, date: now)
        for attempt in 1 ... 10_000 {
            let candidate = attempt == 1 ? name : "\(name).\(attempt)"
            let infoPath = trash.appending("info").appending(candidate + ".trashinfo")
            guard try claim(infoPath, contents: info) else { continue }
            let destination = trash.appending("files").appending(candidate)
            do {
                try GalleryFileSystem.moveNoReplace(original, to: destination)
            } catch {
                GalleryFileSystem.remove(infoPath)
                throw error
            }
            return Trashed(path: destination.string, infoPath: infoPath.string, originalPath: original.string)
        }
        throw FileSystemError(kind: .alreadyExists, path: trash.appending("info").string, operation: "find a free name in the trash",
                              code: .fileExists)
    }

    /// A trash's `files` and `info`, private to the user.
    private static func makeTrashFolders(_ trash: FilePath) throws(FileSystemError) {
        try GalleryFileSystem.makeFolders(trash.appending("files"), permissions: FilePermissions(rawValue: 0o700))
        try GalleryFileSystem.makeFolders(trash.appending("info"), permissions: FilePermissions(rawValue: 0o700))
    }

    /// The `.trashinfo` text: the path percent-encoded (RFC 2396), the time local, to the second.
    static func infoText(path: String, date: Date) -> String {
        "[Trash Info]\nPath=\(PercentEncoding.encode(path, keeping: "\(PercentEncoding.unreservedMarks)/"))\nDeletionDate=\(localTimestamp(date))\n"
    }

    /// `YYYY-MM-DDThh:mm:ss` in local time, as the specification asks.
    static func localTimestamp(_ date: Date) -> String {
        let (year, month, day, hour, minute, second) = Syscalls.localTime(Int64(date.timeIntervalSince1970.rounded(.down)))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
    }

    /// Creates `path` with O_EXCL and writes `contents`; false when the name is taken.
    private static func claim(_ path: FilePath, contents: String) throws -> Bool {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                                 permissions: [.ownerReadWrite])
        } catch let error as Errno where error == .fileExists {
            return false
        } catch let error as Errno {
            throw FileSystemError(error, path: path.string, operation: "create")
        }
        do {
            try descriptor.closeAfter { _ = try descriptor.writeAll(Array(contents.utf8)) }
        } catch let error as Errno {
            GalleryFileSystem.remove(path)
            throw FileSystemError(error, path: path.string, operation: "write")
        }
        return true
    }

    /// The highest folder above `path` still on `device`: its mount point.
    private static func topDirectory(of path: FilePath, device: UInt64) throws -> FilePath {
        var top = path.removingLastComponent()
        while !top.isEmpty, top != "/" {
            let parent = top.removingLastComponent()
            guard try FileStatus.of(parent, followingLinks: true).device == device else { break }
            top = parent
        }
        return top
    }
}
