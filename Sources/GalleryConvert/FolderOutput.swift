#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GalleryFormat

/// A folder written whole or not at all: its content goes into a hidden sibling, which is
/// renamed into place at the end. A replaced folder is moved aside first and removed only once
/// the new one is in place, so a failure at any point leaves the old one or the new one.
public final class FolderOutput {
    public let destination: String
    /// Where the content is written until `commit`.
    public let staging: String
    private let overwrite: Bool
    private var committed = false

    public init(_ destination: String, overwrite: Bool) throws {
        let trimmed = destination.count > 1 && destination.hasSuffix("/") ? String(destination.dropLast()) : destination
        self.destination = trimmed
        self.overwrite = overwrite
        var status = stat()
        if lstat(trimmed, &status) == 0 {
            guard overwrite else { throw ConversionError(trimmed, "already exists (use --force to replace it)", kind: .outputExists) }
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw ConversionError(trimmed, "exists and is not a folder; it is not replaced by one", kind: .outputExists)
            }
        }
        let parent = (trimmed as NSString).deletingLastPathComponent
        let name = (trimmed as NSString).lastPathComponent
        staging = (parent.isEmpty ? "." : parent) + "/." + name + ".partial-" + UUID().uuidString.prefix(8)
        guard mkdir(staging, 0o755) == 0 else {
            throw ConversionError(trimmed, "cannot be created: \(String(cString: strerror(errno)))", kind: .cannotWrite)
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(atPath: staging) }
    }

    /// Makes a folder inside the staging folder.
    public func makeFolder(_ relative: String) throws {
        let path = staging + "/" + relative
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw ConversionError(destination, entry: relative, "cannot be created: \(String(cString: strerror(errno)))", kind: .cannotWrite)
        }
    }

    /// Writes a file inside the staging folder.
    public func write(_ relative: String, bytes: [UInt8]) throws {
        do {
            let file = try GalleryFile.create(staging + "/" + relative, mode: 0o644)
            try file.write(bytes, at: 0)
        } catch {
            throw ConversionError(destination, entry: relative, "cannot be written: \(error)", kind: .cannotWrite)
        }
    }

    /// Opens a new file inside the staging folder.
    public func create(_ relative: String) throws -> GalleryFile {
        do {
            return try GalleryFile.create(staging + "/" + relative, mode: 0o644)
        } catch {
            throw ConversionError(destination, entry: relative, "cannot be written: \(error)", kind: .cannotWrite)
        }
    }

    /// Moves the finished folder into place.
    public func commit() throws {
        var aside: String?
        if access(destination, F_OK) == 0 {
            guard overwrite else { throw ConversionError(destination, "appeared while it was written; it was not replaced", kind: .outputExists) }
            let moved = staging.replacingOccurrences(of: ".partial-", with: ".old-")
            guard rename(destination, moved) == 0 else {
                throw ConversionError(destination, "cannot be replaced: \(String(cString: strerror(errno)))", kind: .cannotWrite)
            }
            aside = moved
        }
        guard rename(staging, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            if let aside { rename(aside, destination) }
            throw ConversionError(destination, "cannot be put in place: \(reason)", kind: .cannotWrite)
        }
        committed = true
        if let aside { try? FileManager.default.removeItem(atPath: aside) }
    }
}
