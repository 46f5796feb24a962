import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// A gallery named "\u{301}trip.imagegallery" (a combining mark first) in a folder named
/// "x\u{600}" (a prepended mark last). As Characters, the slash between them belongs to
/// neither "x\u{600}/" nor "/\u{301}": the path once split at the slash before the temporary
/// folder instead, and every edit failed on a lock file in a folder named ".x…" that did not
/// exist. Each command must work on the file it was given and leave nothing else behind.
@Suite("Paths whose slashes carry marks")
struct MarkedNamePathTests {
    @Test func everyEditWorksOnTheFileItWasGiven() throws {
        let top = try TemporaryDirectory()
        let folder = top.file("x\u{600}")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let gallery = folder + "/\u{301}trip.imagegallery"
        let image = top.file("image.png")
        try FileBytes.write(PNGBytes.image(seed: 1), to: image)
        let environment = ["XDG_STATE_HOME": top.file("state"), "XDG_CACHE_HOME": top.file("cache")]
        func run(_ arguments: [String]) throws {
            let result = try Subprocess.imagegallery(arguments, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        try run(["create", gallery, image, image])
        try run(["rename", gallery, "Renamed"])
        try run(["add", gallery, image])
        try run(["caption", gallery, "1", "First"])
        try run(["remove", gallery, "2"])
        try run(["move", gallery, "1", "--to", "2"])
        let read = try GalleryReader(path: gallery).gallery
        #expect(read.title == "Renamed")
        #expect(read.images.map(\.caption) == [nil, "First"])
        #expect(try Subprocess.imagegallery(["validate", gallery]).status == 0)

        // Nothing beside the gallery or in the folder above: no lock, temporary or version file.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).map { Array($0.utf8) }
        #expect(names == [Array("\u{301}trip.imagegallery".utf8)])
        let above = try FileManager.default.contentsOfDirectory(atPath: top.path).filter { !["state", "cache", "image.png"].contains($0) }
        #expect(above.map { Array($0.utf8) } == [Array("x\u{600}".utf8)])
    }
}
