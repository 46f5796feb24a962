import Foundation
import GalleryFormat
import GallerySystem
import SystemPackage

/// The whole list of a large gallery in the page's form, kept beside its first look: a page
/// drawn from the look fills its grid from it while the editor reads the gallery (at 100,000
/// images about a second), so a scroll straight after the first paint finds photos, not empty
/// frames. The page takes the list for the document's own only when the document says it is
/// still the file's (`token`): the list is a cache, and the document decides.
extension FirstLooks {
    /// The list as `DocumentView.imagesJSON` writes it, and where each image's object starts in it.
    package struct KeptList: Sendable, Equatable {
        package var json: [UInt8]
        package var starts: [UInt32]
        /// Each image's id and its blob's SHA-256 (16 + 32 bytes), in the order of the ids' bytes:
        /// the thumbnails of a page scrolling through the list are found in the cache by these,
        /// without waiting for the open, whose processor time would slow the scroll.
        var blobRecords: [UInt8]
        /// The file's identity as the pages are shown it (`FirstLooks.token(of:)`).
        package var token: String

        package var total: Int { starts.count }

        /// The blob of the image `id`, if the list has that image.
        package func blob(of id: UUID) -> SHA256Digest? {
            let wanted = FirstLooks.order(of: id)
            return blobRecords.withUnsafeBytes { raw -> SHA256Digest? in
                var (low, high) = (0, total)
                while low < high {
                    let middle = (low + high) / 2
                    let found = FirstLooks.order(at: middle * FirstLooks.blobRecordSize, in: raw)
                    if found == wanted {
                        let at = middle * FirstLooks.blobRecordSize + 16
                        return SHA256Digest(bytes: UnsafeRawBufferPointer(rebasing: raw[at ..< at + 32]))
                    }
                    if found < wanted { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }

        /// Images `from ..< from + count` (fewer at the end) as a JSON array, and where it began.
        package func piece(from: Int, count: Int) -> (json: [UInt8], from: Int) {
            let start = min(max(0, from), total)
            let end = min(total, start + max(0, count))
            guard start < end else { return (Array("[]".utf8), start) }
            // Each object ends at the comma before the next, or at the list's closing bracket.
            let last = end < total ? Int(starts[end]) - 1 : json.count - 1
            var bytes = [UInt8]()
            bytes.reserveCapacity(last - Int(starts[start]) + 2)
            bytes.append(0x5B)
            bytes += json[Int(starts[start]) ..< last]
            bytes.append(0x5D)
            return (bytes, start)
        }
    }

    /// A gallery file's identity as the pages are shown it: the same for the same revision of the
    /// file, so a page can tell that the list it was given early is the one its document holds,
    /// without being shown device or inode numbers.
    package static func token(of identity: FileIdentity) -> String {
        SHA256Hasher.of(identityBytes(identity)).bytes.prefix(8).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
        }.joined()
    }

    /// The list kept for gallery `key` at `path` if the cache holds one for the file as it is now.
    package func list(key: String, path: FilePath) -> KeptList? {
        guard let file = listFile(for: key), let identity = try? FileIdentity.of(path: path),
              let handle = try? GalleryFile.openForReading(file), let size = try? handle.size,
              size >= UInt64(Self.listHeaderSize), size <= UInt64(Self.listHeaderSize + Self.largestList),
              let bytes = try? handle.read(at: 0, count: Int(size)), bytes.count == Int(size)
        else { return nil }
        return Self.decodeList(bytes, identity: identity)
    }

    /// Whether the list of the file of `identity` is kept (its header names that file).
    func listKept(in file: FilePath, identity: FileIdentity) -> Bool {
        guard let handle = try? GalleryFile.openForReading(file),
              let header = try? handle.read(at: 0, count: Self.listHeaderSize), header.count == Self.listHeaderSize
        else { return false }
        return Array(header[0 ..< 8]) == Self.listMagic && Array(header[8 ..< 64]) == Self.identityBytes(identity)
    }

    func listFile(for key: String) -> FilePath? {
        file(for: key).map { $0.removingLastComponent().appending("\(key)-\(count).list") }
    }

    /// The largest list kept: a manifest's limit, which the page's form of its images is within
    /// (it leaves out each image's path, size and SHA-256), and 4 + 48 bytes an image.
    static let largestList = (4 + blobRecordSize) * GalleryLimits().maxImages + GalleryLimits().maxManifestBytes

    /// An id as two numbers that compare as its bytes do.
    static func order(of id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { order(at: 0, in: $0) }
    }

    static func order(at offset: Int, in raw: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
         UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
    }
    /// magic, identity (3 × 8 + 4 × 8), the image count, the list's length, SHA-256.
    static let listHeaderSize = 8 + 56 + 4 + 4 + 32
    static let listMagic = Array("IGLIST01".utf8)
}

// The list's file: a header (magic, the gallery file's identity, the number of images, the
// list's length, the SHA-256 of all that follows the header), where each image's object starts
// (4 bytes each), the list as the page reads it, then each image's id and blob in the order of
// the ids' bytes (48 bytes each). Numbers little-endian.
extension FirstLooks {
    static func encodeList(_ images: [GalleryImage], identity: FileIdentity) -> [UInt8]? {
        guard images.count <= GalleryLimits().maxImages else { return nil }
        var starts = [UInt32]()
        starts.reserveCapacity(images.count)
        let json = DocumentView.imagesJSON(images) { starts.append(UInt32($0)) }
        guard json.count <= GalleryLimits().maxManifestBytes else { return nil }
        var body = [UInt8]()
        body.reserveCapacity(starts.count * (4 + blobRecordSize) + json.count)
        for start in starts { withUnsafeBytes(of: start.littleEndian) { body += $0 } }
        body += json
        for image in images.sorted(by: { order(of: $0.id) < order(of: $1.id) }) {
            withUnsafeBytes(of: image.id.uuid) { body += $0 }
            body += image.sha256.bytes
        }
        var bytes = listMagic + identityBytes(identity)
        for word in [UInt32(images.count), UInt32(json.count)] { withUnsafeBytes(of: word.littleEndian) { bytes += $0 } }
        bytes += SHA256Hasher.of(body).bytes
        return bytes + body
    }

    static func decodeList(_ bytes: [UInt8], identity: FileIdentity) -> KeptList? {
        guard bytes.count >= listHeaderSize, Array(bytes[0 ..< 8]) == listMagic, Array(bytes[8 ..< 64]) == identityBytes(identity)
        else { return nil }
        func word(_ at: Int) -> Int { Int(bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }) }
        let (total, length) = (word(64), word(68))
        guard total <= GalleryLimits().maxImages, length <= GalleryLimits().maxManifestBytes,
              bytes.count == listHeaderSize + 4 * total + length + blobRecordSize * total,
              digest(bytes[listHeaderSize...]) == Array(bytes[72 ..< listHeaderSize])
        else { return nil }
        let jsonStart = listHeaderSize + 4 * total
        let json = Array(bytes[jsonStart ..< jsonStart + length])
        let blobRecords = Array(bytes[(jsonStart + length)...])
        // In strict order, or the search could miss: one record an id.
        let ordered = blobRecords.withUnsafeBytes { raw in
            (1 ..< max(total, 1)).allSatisfy { order(at: ($0 - 1) * blobRecordSize, in: raw) < order(at: $0 * blobRecordSize, in: raw) }
        }
        guard ordered else { return nil }
        let starts = (0 ..< total).map { UInt32(word(listHeaderSize + 4 * $0)) }
        // Whole by its digest, and still only cut where the list says an object begins.
        guard json.first == 0x5B, json.last == 0x5D, total == 0 ? json.count == 2 : starts.first == 1 else { return nil }
        for (index, start) in starts.enumerated() {
            let at = Int(start)
            guard at < json.count - 1, json[at] == 0x7B, index == 0 || (at > Int(starts[index - 1]) + 1 && json[at - 1] == 0x2C)
            else { return nil }
        }
        return KeptList(json: json, starts: starts, blobRecords: blobRecords, token: token(of: identity))
    }
}
