import Dispatch
import GalleryFormat
import GalleryImaging
import GallerySystem
import Synchronization
import SystemPackage

extension SourceImage {
    /// An image whose pixels were not decoded because it is past a decode limit: its name and
    /// why. `validate --deep` reports such an image as a warning (IG-BLB-009), not an error.
    public struct UncheckedPixels: Sendable {
        /// The image's ``SourceImage/name``.
        public var name: String
        /// Which limit it is past.
        public var reason: String
    }

    /// Decodes the pixels of every image (each distinct one once, on all cores) as `validate
    /// --deep` does, under its limits (the memory budget `checker` shares among its decodes):
    /// what `create --check-pixels`, `add --check-pixels` and `convert --check-pixels` run, so
    /// that an image whose header is sound but whose pixel data is corrupt (the class the
    /// format leaves to a deep check) is refused before it is written. `progress` is called
    /// with the number done so far, from any thread.
    ///
    /// - Returns: The images past a decode limit, which were not judged (in the order given).
    /// - Throws: `NotAnImageError` naming the first image (in the order given) whose pixels do
    ///   not decode, with its `--deep` id (IG-BLB-008, IG-BLB-013 to -016); `FileSystemError`
    ///   when an image's file cannot be read.
    public static func checkPixels(_ images: [SourceImage], checker: ImagePixelChecker = ImagePixelChecker(),
                                   progress: (@Sendable (Int) -> Void)? = nil) throws -> [UncheckedPixels] {
        var seen = Set<SHA256Digest>()
        let distinct = images.filter { seen.insert($0.sha256).inserted }
        let verdicts = Mutex<[Int: Result<PixelVerdict, any Error>]>([:])
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: distinct.count) { index in
            let image = distinct[index]
            let verdict = Result {
                let file = try GalleryFile.openForReading(FilePath(image.path))
                return checker.check(image.header.mediaType, size: image.byteSize, maxPixels: nil) { offset, count in
                    try file.read(at: offset, count: count)
                }
            }
            verdicts.withLock { $0[index] = verdict }
            progress?(done.add(1, ordering: .relaxed).newValue)
        }
        var unchecked: [UncheckedPixels] = []
        for (index, image) in distinct.enumerated() {
            switch try verdicts.withLock({ $0[index]! }).get() {
            case .sound:
                break
            case .corrupt(let message):
                throw NotAnImageError(path: image.name, reason: "its pixels do not decode: \(message)",
                                      diagnostic: .pixelsCorrupt(image.header.mediaType))
            case .pastLimit(let message):
                unchecked.append(UncheckedPixels(name: image.name, reason: message))
            }
        }
        return unchecked
    }
}
