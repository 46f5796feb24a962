import GalleryBuilder
import GalleryConvert
import GalleryDocument
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage
import Testing

/// The libraries' errors share one shape (``ErrorDetail``: where, what, and the error underneath)
/// and one description, and an error that wraps another keeps it whole.
@Suite("Error detail: one shape, one description, the cause kept")
struct ErrorDetailTests {
    /// Every type of the shared shape prints its detail's description, which is the line each
    /// printed before it shared the shape: `PATH: message`, or `PATH: ENTRY: message`.
    @Test func everyTypePrintsTheSharedDescription() {
        let cases: [(error: any DetailedError, printed: String)] = [
            (DocumentError(.noSuchImage, path: "/g/a.imagegallery", "no image has the id 7"),
             "/g/a.imagegallery: no image has the id 7"),
            (GalleryBuildError(.noSuchSource, path: "/photos/x.jpg", "does not exist"), "/photos/x.jpg: does not exist"),
            (ConversionError("/in/c.cbz", "is not a regular file or a folder"), "/in/c.cbz: is not a regular file or a folder"),
            (ConversionError("/in/c.cbz", entry: "p/1.jpg", "cannot be read: damaged", kind: .cannotWrite),
             "/in/c.cbz: p/1.jpg: cannot be read: damaged"),
            (NotAnImageError(path: "/photos/n.txt", reason: "is a text file"), "/photos/n.txt: is a text file"),
            (NotAnImageError(path: "/photos/b.png", reason: "bad", diagnostic: .declaredSizeContradicted),
             "/photos/b.png: \(DiagnosticCode.declaredSizeContradicted.id): bad"),
            // A decode error has no place: its caller names the image around the message.
            (ImageDecodeError(.corrupt, "the PNG ends before its image data"), "the PNG ends before its image data"),
            (ImageDecodeError(.pastLimit, "the blob is 300 MiB, past the memory limit of 256 MiB"),
             "the blob is 300 MiB, past the memory limit of 256 MiB"),
        ]
        for (error, printed) in cases {
            #expect(error.description == error.detail.description, "\(type(of: error))")
            #expect(error.description == printed)
            #expect("\(error)" == printed)
            #expect(error.underlying == nil)
        }
        // The parts each type names are read from and written to the one detail.
        var conversion = ConversionError("/in/c.cbz", entry: "e", "m")
        conversion.entry = nil
        conversion.message = "is gone"
        #expect(conversion.detail.location == Location(file: "/in/c.cbz"))
        #expect(conversion.description == "/in/c.cbz: is gone")
        var document = DocumentError(.closed, path: "/a", "is closed")
        document.path = "/b"
        #expect(document.description == "/b: is closed")
    }

    /// A real failure: detecting the form of a file that is not there throws a
    /// ``ConversionError`` whose underlying error is the file system's, kind and all, while the
    /// message still reads as it did.
    @Test func aWrappedFileSystemErrorIsReachable() throws {
        let path = "/nonexistent-imagegallery-error-detail/comic.cbz"
        let error = try #require(throws: ConversionError.self) { try FormatDetection.detect(path) }
        #expect(error.description == "\(path): cannot be read: No such file or directory")
        let underlying = try #require(error.underlying as? FileSystemError)
        #expect(underlying.kind == .notFound)
        #expect(underlying.path == path)
        #expect(ErrorCategory(of: error) == .data)
    }

    /// A real failure: a JPEG whose structure the header reader refuses does not decode, and
    /// the ``ImageDecodeError`` says so in the reader's words, with the reader's
    /// ``ImageHeaderError`` kept underneath.
    @Test func aRefusedJPEGStructureIsKeptUnderTheDecodeError() throws {
        let error = try #require(throws: ImageDecodeError.self) { try JPEGDecoder.decode([0xFF, 0xD8, 0xFF, 0xD9]) }
        let underlying = try #require(error.underlying as? ImageHeaderError)
        #expect(error.kind == .corrupt)
        #expect(error.description == underlying.message)
        #expect(error.detail.location == Location())
        #expect(ErrorCategory(of: error) == .data)
    }

    /// A ``GalleryError`` made from an underlying error shows that error's text as its cause,
    /// keeps the error itself, and equals (and hashes as) the same error with the text alone.
    @Test func galleryErrorKeepsItsUnderlyingError() throws {
        let cause = FileSystemError(.noSuchFileOrDirectory, path: "/g/a.imagegallery", operation: "open")
        let wrapped = GalleryError(.truncated, "the local header could not be read",
                                   location: Location(file: "/g/a.imagegallery", entry: "m"), underlying: cause)
        #expect(wrapped.cause == "/g/a.imagegallery: cannot open: No such file or directory")
        #expect(wrapped.description == "/g/a.imagegallery: m: \(DiagnosticCode.truncated.id): the local header could not be read "
                + "(/g/a.imagegallery: cannot open: No such file or directory)")
        #expect((wrapped.underlying as? FileSystemError)?.kind == .notFound)
        let textOnly = GalleryError(.truncated, "the local header could not be read",
                                    location: Location(file: "/g/a.imagegallery", entry: "m"), cause: wrapped.cause)
        #expect(wrapped == textOnly)
        #expect(Set([wrapped, textOnly]).count == 1)
    }
}
