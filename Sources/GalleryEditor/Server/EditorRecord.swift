import Foundation
import GalleryFormat
import GallerySystem
import SystemPackage

/// Word a running editor leaves for the user's next `imagegallery edit` of the same paths:
/// its pid, port and launch secret, in a file only the user can read. A second `edit` makes a
/// launch key from it and opens a page on the running server instead of starting another.
package struct EditorRecord: Codable, Sendable {
    package var pid: ProcessID
    package var port: Int
    /// The launch secret, hex.
    package var secret: String
    package var roots: [String]

    /// `$XDG_RUNTIME_DIR/imagegallery/editor-<digest of the roots>.json`.
    package static func path(for roots: EditorRoots, environment: [String: String] = CurrentProcess.environment) -> FilePath {
        let digest = EditorAccess.hex(SHA256Hasher.of(Array(roots.identity.utf8)).bytes.prefix(12))
        return UserFolders.runtime(environment).appending("editor-\(digest).json")
    }

    /// The record of a server that is running now and answers, or nil: no record, its process
    /// is gone or is not an editor (a pid reused since), or its port refuses connections (an
    /// editor that is stopping, or stuck in its stop: its link would be a dead one).
    package static func running(for roots: EditorRoots) -> EditorRecord? {
        let path = path(for: roots)
        guard let data = try? GalleryFileSystem.contents(of: path),
              let record = try? JSONDecoder().decode(EditorRecord.self, from: Data(data)),
              record.pid.isRunning, record.pid != .current,
              let commandLine = try? GalleryFileSystem.contents(of: FilePath("/proc/\(record.pid)/cmdline")),
              String(decoding: commandLine.prefix(4096), as: UTF8.self).contains(EditorServer.programName),
              LoopbackPort.accepts(record.port) else { return nil }
        return record
    }

    /// Writes the record, readable by the user alone.
    package func write(for roots: EditorRoots) throws {
        let path = Self.path(for: roots)
        try GalleryFileSystem.makeFolders(path.removingLastComponent(), permissions: .ownerReadWriteExecute)
        let bytes = Array(try JSONEncoder().encode(self))
        do throws(FileSystemError) {
            try GalleryFileSystem.writeWhole(bytes, to: path, permissions: .ownerReadWrite)
        } catch {
            throw EditorError.cannotListen("\(error.path): cannot write the editor's record: \(error.reason)")
        }
    }

    /// Removes the record if it is still this process's.
    package static func remove(for roots: EditorRoots) {
        let path = path(for: roots)
        guard let data = try? GalleryFileSystem.contents(of: path),
              let record = try? JSONDecoder().decode(EditorRecord.self, from: Data(data)), record.pid == .current else { return }
        GalleryFileSystem.remove(path)
    }

    /// A launch URL for one more page on this server.
    package func launchURL(landing: String? = nil) -> String? {
        guard let secret = EditorAccess.bytes(fromHex: secret) else { return nil }
        return EditorServer.launchURL(port: port, key: EditorAccess.launchKey(secret: secret))
    }
}
