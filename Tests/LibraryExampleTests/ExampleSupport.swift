import Foundation

// What the examples need around them, from Foundation alone: this target uses the public
// products only (no GalleryTestSupport), as a library user's code would.

/// The repository, found from this file's place, and the fixtures in it.
enum Repository {
    /// The package root: this file is Tests/LibraryExampleTests/ExampleSupport.swift.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// `Fixtures/images`: the sample JPEG and PNG files.
    static var images: String { path("Fixtures/images") }

    static func fixture(_ relative: String) -> String { path("Fixtures/" + relative) }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
}

/// A fresh folder under the system's temporary folder, removed when dropped.
final class ScratchFolder: @unchecked Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("library-example-" + UUID().uuidString.lowercased()).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    /// Copies a fixture here, so that no example can change the original.
    func copy(_ source: String, as name: String) throws -> String {
        try FileManager.default.copyItem(atPath: source, toPath: file(name))
        return file(name)
    }
}
