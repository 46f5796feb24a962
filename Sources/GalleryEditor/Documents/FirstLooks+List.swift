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
    /// The list as `DocumentView.imagesJSON` writes it, where each image's object starts in it,
    /// and each image's blob, all read where they lie in the file's bytes (17 MB at 100,000
    /// images, held only until the document is open).
    package struct KeptList: Sendable, Equatable {
        /// The file, whole and checked: the list, the places and the blob records in order.
        let bytes: [UInt8]
        package let total: Int
        let jsonLength: Int
        /// The file's identity as the pages are shown it (`FirstLooks.token(of:)`).
        package let token: String

        package var json: ArraySlice<UInt8> { bytes[FirstLooks.listHeaderSize ..< startsAt] }
        var startsAt: Int { FirstLooks.listHeaderSize + jsonLength }
        /// Each image's id and its blob's SHA-256 (16 + 32 bytes), in the order of the ids' bytes:
        /// the thumbnails of a page scrolling through the list are found in the cache by these,
        /// without waiting for the open, whose processor time would slow the scroll.
        var recordsAt: Int { startsAt + 4 * total }

        /// Where in `bytes` the object of image `index` begins.
        func start(_ index: Int) -> Int {
            FirstLooks.listHeaderSize + Int(bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: startsAt + 4 * index, as: UInt32.self)) })
        }

        /// Images `from ..< from + count` (fewer at the end) as a JSON array, and where it began.
        package func piece(from: Int, count: Int) -> (json: [UInt8], from: Int) {
            let first = min(max(0, from), total)
            let end = min(total, first + max(0, count))
            guard first < end else { return (Array("[]".utf8), first) }
            // Each object ends at the comma before the next, or at the list's closing bracket.
            let last = end < total ? start(end) - 1 : startsAt - 1
            var piece = [UInt8]()
            piece.reserveCapacity(last - start(first) + 2)
            piece.append(0x5B)
            piece += bytes[start(first) ..< last]
            piece.append(0x5D)
            return (piece, first)
        }

        /// The blob of the image `id`, if the list has that image.
        package func blob(of id: UUID) -> SHA256Digest? {
            let wanted = FirstLooks.order(of: id)
            return bytes.withUnsafeBytes { file -> SHA256Digest? in
                let raw = UnsafeRawBufferPointer(rebasing: file[recordsAt...])
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
    }

    /// A gallery file's identity as the pages are shown it: the same for the same revision of the
    /// file, so a page can tell that the list it was given early is the one its document holds,
    /// without being shown device or inode numbers.
    package static func token(of identity: FileIdentity) -> String {
        String(SHA256Hasher.of(identityBytes(identity)).hex.prefix(16))
    }

    /// The list kept for gallery `key` at `path` if the cache holds one for the file as it is now.
    package func list(key: String, path: FilePath) -> KeptList? {
        guard let file = listFile(for: key), let identity = try? FileIdentity.of(path: path),
              let bytes = Self.contents(of: file, sized: Self.listHeaderSize ... Self.listHeaderSize + Self.largestList)
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
// list's length, the SHA-256 of all that follows the header), the list as the page reads it,
// where each image's object starts in it (4 bytes each), then each image's id and blob in the
// order of the ids' bytes (48 bytes each). Numbers little-endian. Written in one buffer: at
// 100,000 images it is 17 MB, made while the editor has the gallery open.
extension FirstLooks {
    static func encodeList(_ images: [GalleryImage], identity: FileIdentity) -> [UInt8]? {
        guard images.count <= GalleryLimits().maxImages else { return nil }
        var bytes = listMagic + identityBytes(identity)
        bytes.reserveCapacity(listHeaderSize + images.count * (130 + 4 + blobRecordSize))
        bytes += [UInt8](repeating: 0, count: listHeaderSize - bytes.count)  // the counts and digest, below
        var starts = [UInt32]()
        starts.reserveCapacity(images.count)
        DocumentView.appendImagesJSON(images, to: &bytes) { starts.append(UInt32($0 - listHeaderSize)) }
        let length = bytes.count - listHeaderSize
        guard length <= GalleryLimits().maxManifestBytes else { return nil }
        for start in starts { withUnsafeBytes(of: start.littleEndian) { bytes += $0 } }
        // The ids' order, by index: sorting the images themselves would copy 100,000 of them.
        let orders = images.map { order(of: $0.id) }
        for index in orders.indices.sorted(by: { orders[$0] < orders[$1] }) {
            withUnsafeBytes(of: images[index].id.uuid) { bytes += $0 }
            bytes += images[index].sha256.bytes
        }
        for (at, word) in [(64, UInt32(images.count)), (68, UInt32(length))] {
            withUnsafeBytes(of: word.littleEndian) { bytes.replaceSubrange(at ..< at + 4, with: $0) }
        }
        bytes.replaceSubrange(72 ..< listHeaderSize, with: digest(bytes[listHeaderSize...]))
        return bytes
    }

    static func decodeList(_ bytes: [UInt8], identity: FileIdentity) -> KeptList? {
        guard bytes.count >= listHeaderSize, Array(bytes[0 ..< 8]) == listMagic, Array(bytes[8 ..< 64]) == identityBytes(identity)
        else { return nil }
        func word(_ at: Int) -> Int { Int(bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }) }
        let (total, length) = (word(64), word(68))
        guard total <= GalleryLimits().maxImages, length <= GalleryLimits().maxManifestBytes, length >= 2,
              bytes.count == listHeaderSize + length + (4 + blobRecordSize) * total,
              digest(bytes[listHeaderSize...]) == Array(bytes[72 ..< listHeaderSize])
        else { return nil }
        let list = KeptList(bytes: bytes, total: total, jsonLength: length, token: token(of: identity))
        // Whole by its digest, and still only cut where the list says an object begins.
        let (open, close) = (bytes[listHeaderSize], bytes[list.startsAt - 1])
        guard open == 0x5B, close == 0x5D, total == 0 ? length == 2 : list.start(0) == listHeaderSize + 1 else { return nil }
        for index in 0 ..< total {
            let at = list.start(index)
            guard at < list.startsAt - 1, bytes[at] == 0x7B, index == 0 || (at > list.start(index - 1) + 1 && bytes[at - 1] == 0x2C)
            else { return nil }
        }
        // In strict order, or the search could miss: one record an id.
        let ordered = bytes.withUnsafeBytes { file in
            let raw = UnsafeRawBufferPointer(rebasing: file[list.recordsAt...])
            return (1 ..< max(total, 1)).allSatisfy { order(at: ($0 - 1) * blobRecordSize, in: raw) < order(at: $0 * blobRecordSize, in: raw) }
        }
        return ordered ? list : nil
    }
}
