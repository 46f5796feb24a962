import Foundation
import GalleryTestSupport
import Synchronization
import Testing

/// Photos of all six types carrying what phones and cameras write (a GPS position, XMP and
/// IPTC place names, serial numbers, an owner, an artist, a capture time, orientation 6, an
/// Adobe RGB profile), written by exiftool (`Tests/Privacy/private_photos.py make`), and a
/// plain JPEG; made once for every test of the run, then only read. `judge` is the same script's
/// independent verdict: exiftool finds nothing of the scope, the orientation and the profile are
/// still there, and the reference decoders give the original's pixels.
enum PrivacyPhotos {
    static let types = ["jpg", "png", "webp", "gif", "avif", "heic"]
    static let script = TestPaths.repository + "/Tests/Privacy/private_photos.py"

    /// The folder holding `private.<type>` and `plain.jpg`.
    static let folder: Result<String, any Error> = Result {
        let directory = try TemporaryDirectory()
        let made = try Subprocess.run("/usr/bin/python3", [script, "make", directory.path])
        guard made.status == 0 else { throw PhotosFailed(message: made.stderr) }
        // Kept for the whole run: the TemporaryDirectory would remove it when released.
        kept.withLock { $0.append(directory) }
        return directory.path
    }

    static let kept = Mutex<[TemporaryDirectory]>([])

    struct PhotosFailed: Error { var message: String }

    static func photo(_ type: String) throws -> String { try folder.get() + "/private." + type }

    /// A gallery of the six photos then the plain one, made in `directory`.
    static func gallery(in directory: TemporaryDirectory, name: String = "trip.imagegallery") throws -> String {
        let path = directory.file(name)
        let sources = try types.map(photo) + [try folder.get() + "/plain.jpg"]
        let created = try Subprocess.imagegallery(["create", path] + sources)
        try #require(created.status == 0, "\(created.stderr)")
        return path
    }

    /// The script's verdict on `stripped` against `original` for `scopes` ("location",
    /// "identity", "all"); nil when it passed, else its failures.
    static func judge(_ original: String, _ stripped: String, scopes: [String]) throws -> String? {
        let result = try Subprocess.run("/usr/bin/python3", [script, "judge", original, stripped, "--scope", scopes.joined(separator: ",")])
        return result.status == 0 ? nil : result.stdout + result.stderr
    }
}
