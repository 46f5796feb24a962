import GalleryTestSupport
import Testing
@testable import GalleryFormat

/// `GalleryReader.withBlob`: an image's bytes handed whole to work that runs while their digest
/// is checked beside it. What that work made comes back only for bytes that are the manifest's,
/// and the errors are `readBlob`'s, in its order.
@Suite struct WholeBlobTests {
    /// Each image's bytes are the ones `readBlob` streams, and what `use` made comes back.
    @Test func aSoundBlobIsHandedWholeAndWhatWasMadeComesBack() throws {
        let reader = try GalleryReader(path: TestPaths.fixture("valid/all.imagegallery"))
        for image in reader.gallery.images {
            var streamed: [UInt8] = []
            try reader.readBlob(image) { streamed += $0 }
            let made = try reader.withBlob(image) { bytes in (bytes == streamed, bytes.count) }
            #expect(made.0 && made.1 == Int(image.byteSize), "\(image.path)")
        }
    }

    /// Bytes whose digest is not the manifest's: what was made of them is not given back, and
    /// the hash mismatch is the error, also when the work itself failed on them.
    @Test func whatWasMadeOfBytesThatFailTheirDigestIsNotGivenBack() throws {
        let reader = try GalleryReader(path: TestPaths.fixture("invalid/content/IG-BLB-003-sha256-mismatch.imagegallery"))
        let image = reader.gallery.images[0]
        struct Failed: Error {}
        let uses: [([UInt8]) throws -> Int] = [{ $0.count }, { _ in throw Failed() }]
        for use in uses {
            #expect {
                try reader.withBlob(image, use)
            } throws: { error in
                (error as? GalleryError)?.code == .blobHashMismatch
            }
        }
    }

    /// Bytes of another type than the manifest names are never handed to the work, and the
    /// error is the one `readBlob` gives for them.
    @Test func bytesOfAnotherTypeAreNeverHandedOut() throws {
        for name in ["IG-BLB-005-html-declared-png", "IG-BLB-005-png-declared-jpeg"] {
            let reader = try GalleryReader(path: TestPaths.fixture("invalid/content/\(name).imagegallery"))
            let image = reader.gallery.images[0]
            var streamedError: GalleryError?
            do { try reader.readBlob(image) { _ in } } catch { streamedError = error as? GalleryError }
            let expected = try #require(streamedError?.code, "\(name): readBlob took the blob")
            var handed = false
            #expect {
                try reader.withBlob(image) { _ in handed = true }
            } throws: { error in
                (error as? GalleryError)?.code == expected
            }
            #expect(!handed, "\(name): bytes of another type were handed out")
        }
    }
}
