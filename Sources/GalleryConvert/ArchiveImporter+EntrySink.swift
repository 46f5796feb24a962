import GalleryFormat
import GallerySystem

/// Where one entry's bytes go as libarchive decompresses them: to a spool file once its
/// leading bytes show a JPEG or PNG (hashed on the way), to memory for a `ComicInfo.xml`
/// (up to a bound), or nowhere, while still being counted by the caller.
struct EntrySink {
    let archive: String
    let entry: String
    let spoolPath: String
    /// The most text kept, for an entry read as text; nil for an entry that may be an image.
    let keepsText: Int?

    private(set) var size: UInt64 = 0
    /// Why the entry is not kept, once that is known. An entry that is not a JPEG or PNG is
    /// named by what its leading bytes are (``ImageKind/refusal``), once they are all in.
    var verdict: String? { failure ?? (isNotAnImage ? ImageKind.identify(head).refusal : nil) }
    private var failure: String?
    /// The first 8 bytes are neither JPEG nor PNG.
    private var isNotAnImage = false
    private(set) var text: [UInt8] = []
    private var head: [UInt8] = []
    private var file: GalleryFile?
    private var sha = SHA256Hasher()
    private var crc = CRC32()

    init(archive: String, entry: String, spoolPath: String, keepsText: Int?) {
        self.archive = archive
        self.entry = entry
        self.spoolPath = spoolPath
        self.keepsText = keepsText
    }

    var isSpooled: Bool { file != nil }
    /// Why an entry too short to be decided on (fewer than 8 bytes) is not kept.
    var shortEntryRefusal: String { size == 0 ? "empty" : ImageKind.identify(head).refusal ?? "not a JPEG or PNG image" }
    var sha256: SHA256Digest { sha.finalize() }
    var crc32: UInt32 { crc.value }

    mutating func take(_ chunk: UnsafeRawBufferPointer) throws {
        let offset = size
        size += UInt64(chunk.count)
        if head.count < ImageKind.identifyingBytes { head += chunk.prefix(ImageKind.identifyingBytes - head.count) }
        if let keepsText {
            if UInt64(keepsText) >= size { text += chunk } else { failure = "a ComicInfo.xml past \(keepsText) bytes" }
            return
        }
        guard failure == nil, !isNotAnImage else { return }
        if file == nil {
            // Decided on the first 8 bytes, which may come in more than one chunk.
            guard size >= 8 else { return }
            guard MediaType.sniff(head) != nil else {
                isNotAnImage = true
                return
            }
            let created = try create()
            file = created
            // The bytes before this chunk are all in `head` (fewer than 8 of them).
            let earlier = Array(head.prefix(Int(offset)))
            if !earlier.isEmpty {
                try earlier.withUnsafeBytes { try write($0, to: created, at: 0) }
                sha.update(earlier)
                crc.update(earlier)
            }
        }
        try write(chunk, to: file!, at: offset)
        sha.update(chunk)
        crc.update(chunk)
    }

    private func create() throws -> GalleryFile {
        do {
            return try GalleryFile.create(spoolPath, permissions: .ownerReadWrite)
        } catch {
            throw ConversionError(archive, entry: entry, "cannot be spooled to \(spoolPath): \(error)", kind: .cannotWrite)
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to file: GalleryFile, at offset: UInt64) throws {
        do {
            try file.write(bytes, at: offset)
        } catch {
            throw ConversionError(archive, entry: entry, "cannot be spooled: \(error)", kind: .cannotWrite)
        }
    }
}
