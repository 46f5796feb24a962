import Dispatch
import GalleryFormat
import GalleryImageHeaders
import GallerySystem
import Synchronization
import SystemPackage

/// An image file examined for a gallery: its header, size, SHA-256 and on-disk identity.
public struct InspectedImageFile: Sendable {
    /// The path the file was read from, as given.
    public var path: String
    /// The image's type, size and other facts from its header: what the manifest records of it.
    public var header: ImageHeader
    /// The bytes hashed, which is the blob's size in the gallery.
    public var byteSize: UInt64
    /// SHA-256 of the bytes: the blob's name and checksum in the gallery's manifest.
    public var sha256: SHA256Digest
    /// CRC-32 of the bytes, computed in the same pass as the hash, for the ZIP headers.
    public var crc32: UInt32
    /// The file's state when it was hashed; a writer checks it again before committing.
    public var identity: FileIdentity
    /// The description the image carries of itself (EXIF, XMP, PNG text), cleaned and bounded.
    public var description: String?
}

/// A file that is not an image the gallery can hold.
public struct NotAnImageError: Error, Sendable, DetailedError {
    /// The file refused, the reason, and the error underneath (the header reader's refusal);
    /// printed as `PATH: reason`.
    public var detail: ErrorDetail
    /// The whole reason, said once: what the file is instead ("a WebP image; this gallery
    /// format takes JPEG, PNG, WebP, GIF, AVIF and HEIC", `ImageKind/refusal`), or why its header
    /// cannot be read.
    public var reason: String {
        get { detail.message }
        set { detail.message = newValue }
    }
    /// The id of the problem, when it has one a validator reports too: a structure behind a
    /// readable header that does not hold together (IG-BLB-017, IG-BLB-018), a declared size the
    /// coded image contradicts (IG-BLB-019), or pixels that
    /// do not decode (`--check-pixels`: IG-BLB-008, IG-BLB-013 to -016). The reason starts with it.
    public var diagnostic: DiagnosticCode?
    /// A refusal of the file at `path` for `reason`; with a `diagnostic`, the reason is prefixed
    /// with its id (`IG-BLB-019: …`) so that the message matches what the validator says.
    /// `underlying` is the error that caused it, when one did.
    public init(path: String, reason: String, diagnostic: DiagnosticCode? = nil, underlying: (any Error)? = nil) {
        self.detail = ErrorDetail(at: Location(file: path), diagnostic.map { "\($0.id): \(reason)" } ?? reason,
                                  underlying: underlying)
        self.diagnostic = diagnostic
    }

    /// From the header reader's refusal: a refused type is named as the reader said it; an
    /// image of a type the format takes whose header is bad keeps the reader's detail, and one
    /// whose structure does not hold together its id.
    public init(path: String, _ error: ImageHeaderError) {
        if let diagnostic = error.diagnostic {
            let what = diagnostic == .declaredSizeContradicted ? "the image is not the size it declares" : "the image does not hold together"
            self.init(path: path, reason: "\(what): \(error.detail)", diagnostic: diagnostic, underlying: error)
        } else {
            self.init(path: path, reason: error.kind != nil ? error.description : "its image header cannot be read: \(error.description)",
                      underlying: error)
        }
    }
}

/// Image files on disk, before they are in a gallery: the cheap check a folder scan makes, the
/// reason a file is skipped, and the one pass that reads a file's header, description, SHA-256
/// and CRC-32 for the builder.
public enum ImageFile {
    /// True when the file starts like an image of a type the format takes (a cheap check for folder scans).
    public static func looksLikeImage(_ path: String, accepting accepted: Set<MediaType> = Set(MediaType.allCases)) -> Bool {
        guard let file = try? GalleryFile.openForReading(FilePath(path)), let head = try? file.read(at: 0, count: ImageKind.identifyingBytes) else {
            return false
        }
        return MediaType.sniff(head).map(accepted.contains) ?? false
    }

    /// Why a file is not taken, for the warning of a folder scan that skips it: "a WebP image;
    /// this gallery format takes …", or `ImageKind/notAnImage`.
    public static func refusal(ofFileAt path: String, accepting accepted: Set<MediaType> = Set(MediaType.allCases)) -> String {
        let head = (try? GalleryFile.openForReading(FilePath(path)).read(at: 0, count: ImageKind.identifyingBytes)) ?? []
        return ImageKind.identify(head).refusal(accepting: accepted) ?? ImageKind.notAnImage
    }

    /// Reads the header and hashes the whole file once. The first chunk read serves the header
    /// reader and the description reader too, so a small image (or a photo's metadata) is read
    /// from the file once, not once for each.
    public static func inspect(_ path: String) throws -> InspectedImageFile {
        let file = try GalleryFile.openForReading(FilePath(path))
        // The identity of what was opened and is read, whatever the path names by now.
        let before = try file.identity()
        // 256 KiB stays in L2 between the hash and the CRC.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 64)
        defer { buffer.deallocate() }
        let first = try file.read(at: 0, into: buffer)
        let head = UnsafeRawBufferPointer(rebasing: buffer[0 ..< first])
        let wholeFile = first < buffer.count
        let read: (UInt64, Int) throws -> [UInt8] = { offset, count in
            if offset <= UInt64(first) {
                let start = Int(offset)
                let available = first - start
                if count <= available || wholeFile { return Array(head[start ..< start + min(count, available)]) }
            }
            return try file.read(at: offset, count: count)
        }
        let header: ImageHeader
        do {
            header = try ImageHeader.parse(size: before.size, read: read)
        } catch let error as ImageHeaderError {
            throw NotAnImageError(path: path, error)
        }
        let description = ImageDescription.of(size: before.size, read: read)

        var hasher = SHA256Hasher()
        var crc = CRC32()
        // Both sums over the same chunk while it is in cache: the data is read once.
        hasher.update(head)
        crc.update(head)
        var offset = UInt64(first)
        if !wholeFile {
            file.adviseSequential()
            while true {
                let got = try file.read(at: offset, into: buffer)
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0 ..< got])
                hasher.update(chunk)
                crc.update(chunk)
                offset += UInt64(got)
                if got < buffer.count { break }
            }
        }
        guard offset > 0 else { throw NotAnImageError(path: path, reason: "the file is empty") }
        return InspectedImageFile(path: path, header: header, byteSize: offset, sha256: hasher.finalize(),
                                   crc32: crc.value, identity: before, description: description)
    }

    /// The description an image file carries of itself (EXIF `ImageDescription`, XMP
    /// `dc:description`, PNG `Description` text), read from its metadata under limits; nil when
    /// it has none or it cannot be read.
    public static func description(ofFileAt path: String) -> String? {
        guard let file = try? GalleryFile.openForReading(FilePath(path)), let size = try? file.size else { return nil }
        return ImageDescription.of(size: size) { offset, count in try file.read(at: offset, count: count) }
    }

    /// Inspects files on all cores; results come back in the order of `paths`.
    /// `progress` is called with the number done so far, from any thread.
    public static func inspectAll(_ paths: [String], progress: (@Sendable (Int) -> Void)? = nil)
        throws -> [InspectedImageFile] {
        let results = Mutex<[Int: Result<InspectedImageFile, any Error>]>([:])
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Result { try inspect(paths[index]) }
            results.withLock { $0[index] = result }
            let count = done.add(1, ordering: .relaxed).newValue
            progress?(count)
        }
        return try results.withLock { table in try (0 ..< paths.count).map { try table[$0]!.get() } }
    }
}
