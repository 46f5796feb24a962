import FoundationEssentials
@testable import GalleryFormat
import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// A save copies the blobs of the file it replaces. Small ones are read many to a call and
/// written through the writer's buffer, large ones copied in the kernel; either way the new
/// file must be the one a writer given the bytes themselves makes, in any order the images
/// take, and a file cut short under the save must fail it, never be copied short.
@Suite("Blobs copied from the file a save replaces")
struct SavedBlobCopyTests {
    /// A gallery of small blobs with a few past the batching size among them.
    static func mixedGallery() -> (Gallery, [SHA256Digest: [UInt8]]) {
        var (gallery, blobs) = makeGallery(count: 600)
        var random = SeededGenerator(seed: 34)
        for index in stride(from: 5, to: 600, by: 97) {
            let bytes = (0 ..< (Int(StoredRunWindow.smallEntry) + 1 + index)).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
            let digest = SHA256Hasher.of(bytes)
            blobs[digest] = bytes
            gallery.images[index].sha256 = digest
            gallery.images[index].byteSize = UInt64(bytes.count)
            gallery.images[index].mediaType = .png
        }
        return (gallery, blobs)
    }

    @Test(arguments: ["as it was", "last to the front", "reversed", "shuffled", "every other one"])
    func copiedBlobsMakeTheFileTheirBytesMake(order: String) throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = Self.mixedGallery()
        let original = directory.file("original.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: original)

        var reordered = gallery
        var random = SeededGenerator(seed: 7)
        switch order {
        case "last to the front": reordered.images.insert(reordered.images.removeLast(), at: 0)
        case "reversed": reordered.images.reverse()
        case "shuffled": reordered.images.shuffle(using: &random)
        case "every other one": reordered.images = reordered.images.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        default: break
        }
        reordered.modified = Timestamp(seconds: 1_800_000_000)

        let archive = try ZipArchive(file: GalleryFile.openForReading(FilePath(original)))
        let copied = directory.file("copied.imagegallery")
        try GalleryWriter.write(reordered, thumbnail: PlaceholderThumbnail.png(forFirstImage: (1, 1)), to: copied,
                                overwrite: false) { image in
            .storedEntry(archive, archive.entry(named: image.path)!)
        }
        let made = directory.file("made.imagegallery")
        try writeGallery(reordered, blobs: blobs, to: made)
        #expect(try FileBytes.read(copied) == (try FileBytes.read(made)), "\(order)")
        #expect(try GalleryReader(path: copied).gallery == reordered)
    }

    @Test func aFileCutShortUnderTheSaveFailsIt() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 300)
        let original = directory.file("original.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: original)
        let archive = try ZipArchive(file: GalleryFile.openForReading(FilePath(original)))
        // Another program cuts the file inside the blobs after it was opened.
        let cut = archive.entries[archive.entries.count / 2].localHeaderOffset + 40
        try GalleryFile.openForWritingInPlace(FilePath(original)).file.truncate(to: cut)
        let copy = directory.file("copy.imagegallery")
        #expect(throws: GalleryError.self) {
            try GalleryWriter.write(gallery, thumbnail: PlaceholderThumbnail.png(forFirstImage: (1, 1)), to: copy,
                                    overwrite: false) { image in .storedEntry(archive, archive.entry(named: image.path)!) }
        }
        #expect(try !FileStatus.exists(FilePath(copy)), "a failed save leaves no file behind")
    }
}
