import Foundation
import GalleryFormat

/// A gallery in a temporary folder, edited by the real binary, with a private version store: the
/// editing commands' tests (CommandLineTests) and git's merge driver and textconv (IntegrationTests).
public struct EditingWorkspace: Sendable {
    public let directory: TemporaryDirectory
    public let gallery: String

    public init(images: Int = 0) throws {
        directory = try TemporaryDirectory()
        gallery = directory.file("trip.imagegallery")
        let sources = try (0 ..< images).map { try image($0) }
        let result = try run(["create", gallery, "--title", "Trip"] + sources)
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: result.stderr]) }
    }

    public var environment: [String: String] { ["XDG_STATE_HOME": directory.file("state")] }

    /// A distinct small PNG file, `image-N.png`.
    public func image(_ seed: Int) throws -> String {
        let path = directory.file("image-\(seed).png")
        if !FileManager.default.fileExists(atPath: path) { try FileBytes.write(PNGBytes.image(seed: seed), to: path) }
        return path
    }

    public func run(_ arguments: [String]) throws -> ProcessResult {
        try Subprocess.imagegallery(arguments, environment: environment)
    }

    public func content(_ path: String? = nil) throws -> Gallery { try GalleryReader(path: path ?? gallery).gallery }

    /// The file names of the images, in gallery order.
    public func names(_ path: String? = nil) throws -> [String] { try content(path).images.map { $0.filename ?? "?" } }

    public func isValid(_ path: String? = nil) throws -> Bool {
        try Subprocess.imagegallery(["validate", path ?? gallery]).status == 0
    }
}
