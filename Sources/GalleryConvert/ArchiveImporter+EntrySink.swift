import GalleryFormat
import GalleryImageHeaders
import GallerySystem
import SystemPackage

/// Where one entry's bytes go as libarchive decompresses them: to a spool file once its
/// leading bytes show an image of a type the format takes (hashed on the way), to memory for a `ComicInfo.xml`
/// (up to a bound), or nowhere, while still being counted by the caller.
struct EntrySink {
    let archive: String
    let entry: String
    let spoolPath: FilePath
    /// The most text kept, for an entry read as text; nil for an entry that may be an image.
    let keepsText: Int?
    /// The image types taken; an entry of another is not kept.
    let accepted: Set<MediaType>

    private(set) var size: UInt64 = 0
    /// Why the entry is not kept, once that is known. An entry that is no such image is
    /// named by what its leading bytes are (``ImageKind/refusal``), once they are all in.
    var verdict: String? { failure ?? (isNotAnImage ? ImageKind.identify(head).refusal(accepting: accepted) : nil) }
    private var failure: String?
    /// The leading bytes are of no type the format takes.
    private var isNotAnImage = false
    private(set) var text: [UInt8] = []
    private var head: [UInt8] = []
    private var file: GalleryFile?
    private var sha = SHA256Hasher()
    private var crc = CRC32()

    init(archive: String, entry: String, spoolPath: FilePath, accepted: Set<MediaType>, keepsText: Int?) {
        self.archive = archive
        self.entry = entry
        self.spoolPath = spoolPath
        self.accepted = accepted
        self.keepsText = keepsText
    }

    var isSpooled: Bool { file != nil }
    /// Why an entry that was never spooled, and has no verdict, is not kept: it is empty.
    var shortEntryRefusal: String { size == 0 ? "empty" : ImageKind.identify(head).refusal(accepting: accepted) ?? ImageKind.notAnImage }
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
            // Decided on the bytes that tell every type apart (an ISOBMFF ftyp box's brands among
            // them), which may come in more than one chunk; a shorter entry is decided at its end.
            guard size >= UInt64(ImageKind.identifyingBytes) else { return }
            // The bytes before this chunk are all in `head`.
            guard try spool(earlier: Array(head.prefix(Int(offset)))) else { return }
        }
        try write(chunk, to: file!, at: offset)
        sha.update(chunk)
        crc.update(chunk)
    }

    /// At the entry's end: an entry shorter than the deciding bytes (a 1 × 1 GIF has 35) is
    /// decided on all it has.
    mutating func finish() throws {
        guard keepsText == nil, failure == nil, !isNotAnImage, file == nil, size > 0 else { return }
        _ = try spool(earlier: head)
    }

    /// Starts the spool file, with `earlier` bytes already taken, if the leading bytes are an
    /// image of a type the format takes; false (and the entry refused) if not.
    private mutating func spool(earlier: [UInt8]) throws -> Bool {
        guard let type = MediaType.sniff(head), accepted.contains(type) else {
            isNotAnImage = true
            return false
        }
        let created = try create()
        file = created
        if !earlier.isEmpty {
            try earlier.withUnsafeBytes { try write($0, to: created, at: 0) }
            sha.update(earlier)
            crc.update(earlier)
        }
        return true
    }

    private func create() throws -> GalleryFile {
        do {
            return try GalleryFile.create(spoolPath, permissions: .ownerReadWrite)
        } catch {
            throw ConversionError(archive, entry: entry, "cannot be spooled to \(spoolPath.string): \(error)", kind: .cannotWrite,
                underlying: error)
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to file: GalleryFile, at offset: UInt64) throws {
        do {
            try file.write(bytes, at: offset)
        } catch {
            throw ConversionError(archive, entry: entry, "cannot be spooled: \(error)", kind: .cannotWrite, underlying: error)
        }
    }
}
