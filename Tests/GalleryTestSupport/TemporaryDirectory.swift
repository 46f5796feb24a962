import Foundation

/// A fresh folder under the system temporary folder, removed when dropped.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    /// A fresh folder in `parent`, by default the system temporary folder.
    public init(in parent: String = NSTemporaryDirectory()) throws {
        // NSTemporaryDirectory() ends with "/": without its trailing slashes, the folder's path
        // is in the normal form in which GallerySystem names a path (`FilePath`'s) in errors.
        var parent = parent
        while parent.utf8.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        var template = Array((parent + "/imagegallery-test-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Copies a fixture here, so no test can change the original.
    public func copy(_ source: String, as name: String? = nil) throws -> String {
        let target = file(name ?? URL(fileURLWithPath: source).lastPathComponent)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }
}
