import Foundation
@testable import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// What GallerySystem does in place of Foundation's APIs (which imagegallery no longer links:
/// they bring ICU into every start) gives what Foundation gave, checked against Foundation
/// itself, which the tests still link.
@Suite("Foundation parity")
struct FoundationParityTests {
    /// Every ASCII character, and a few beyond, against `addingPercentEncoding` with the set
    /// SARIF's locations used (`urlPathAllowed` without ":").
    @Test func percentEncodingIsFoundationsForAPathURI() {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        let samples = (0 ..< 128).map { String(UnicodeScalar(UInt8($0))) }
            + ["Trip 100% fun/été.imagegallery", "a:b/c?d#e[f]", "日本/写真 1.imagegallery", "🙂/x", "~user/.hidden"]
        for text in samples {
            #expect(PercentEncoding.encode(text, keeping: "-._~!$&'()*+,=@/") == text.addingPercentEncoding(withAllowedCharacters: allowed),
                    "\(text.unicodeScalars.map { $0.value })")
        }
    }

    @Test func descendantsAreWhatFileManagerEnumerates() throws {
        let directory = try TemporaryDirectory()
        for folder in ["a/b/c", ".hidden/d", "e f/g"] {
            try FileManager.default.createDirectory(atPath: directory.file(folder), withIntermediateDirectories: true)
        }
        for file in ["top.imagegallery", "a/one", "a/b/two.imagegallery", "a/b/c/three", ".hidden/d/four.imagegallery", "e f/five"] {
            try Data().write(to: URL(fileURLWithPath: directory.file(file)))
        }
        // A link to a folder is listed and not entered, as FileManager does; a loop would
        // otherwise never end.
        try FileManager.default.createSymbolicLink(atPath: directory.file("a/loop"), withDestinationPath: directory.path)
        let ours = try GalleryFileSystem.descendants(ofFolder: FilePath(directory.path)).map(\.string)
        var theirs: [String] = []
        let walker = try #require(FileManager.default.enumerator(atPath: directory.path))
        while let relative = walker.nextObject() as? String { theirs.append(relative) }
        #expect(ours.sorted() == theirs.sorted())
        #expect(ours.count == 14, "\(ours.sorted())")
        #expect { try GalleryFileSystem.descendants(ofFolder: FilePath(directory.file("missing"))) } throws: { error in
            "\(error)" == directory.file("missing") + ": cannot list the folder: No such file or directory"
        }
    }

    @Test func theUserNameIsNSUserNames() {
        #expect(CurrentProcess.userName == NSUserName())
    }

    /// Foundation's own errors, which FileManager and Data still throw, as words and not as a
    /// dump of their fields.
    @Test func foundationsFileErrorsGiveTheSystemsReason() throws {
        let directory = try TemporaryDirectory()
        do {
            try Data().write(to: URL(fileURLWithPath: directory.file("missing/file")), options: .atomic)
            Issue.record("the write into a missing folder succeeded")
        } catch {
            #expect(FileSystemError.reason(of: error) == "No such file or directory", "\(error)")
        }
        #expect(FileSystemError.reason(of: POSIXError(.EACCES)) == "Permission denied")
        #expect(FileSystemError.reason(of: FileSystemError(.noSpace, path: "p", operation: "write")) == "No space left on device")
    }

}
