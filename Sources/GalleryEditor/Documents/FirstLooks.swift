import Foundation
import GalleryFormat
import GallerySystem
import SystemPackage

/// Each large gallery's first look (`DocumentView.windowed(first:)`) as a fresh open of its file
/// shows it, kept under `$XDG_CACHE_HOME/imagegallery/looks` for that file's identity. A page
/// that opens a gallery the editor has opened before draws its grid from it at once, while the
/// editor reads the gallery behind it: at 100,000 images a 37 MB manifest and 100,000 local
/// headers, most of a warm first paint. The page takes it as an early look (`early`): it asks for
/// the document's own view straight after, and no edit goes out before that view is in.
///
/// A look is only given for the file it was made from: the same device, inode, size, mtime and
/// ctime (a writer that puts the mtime back cannot put the ctime back). The cache is read as
/// hostile input all the same: a file of a bounded size, its bytes checked against the SHA-256
/// it carries before any of them is used, so a torn or damaged look is no look.
package struct FirstLooks: Sendable {
    package let folder: FilePath
    /// The images a look names whole: the page asks for this many (FIRST_LOOK, editor-grid.js).
    package let count: Int

    /// How long after an open the look is kept: a page opening the gallery is drawing its first
    /// screen then, and at 100,000 images the list kept with the look is 17 MB to write, sort and
    /// hash on a processor the page needs.
    package let settle: Duration

    package init(folder: FilePath = UserFolders.cache().appending("looks"), count: Int = 1000, settle: Duration = .seconds(2)) {
        self.folder = folder
        self.count = count
        self.settle = settle
    }

    /// What the page is given early, and what the first screen's thumbnails need of it.
    package struct Look: Sendable, Equatable {
        /// The view's JSON, with `early` set.
        package var view: [UInt8]
        /// The blob of each image the look names whole, for the first screen's thumbnails
        /// (EditorRoutes+Screenful), which are sent before the document is open.
        package var blobs: [UUID: SHA256Digest]
    }

    /// The largest view a look keeps: 1,000 images whole and 99,000 sizes are about 1 MB, and
    /// the rest is room for long captions. A larger look is not kept.
    static let largestView = 16 << 20
    /// magic, identity (3 × 8 + 4 × 8), first, the view's length, the blob count, SHA-256.
    static let headerSize = 8 + 56 + 4 + 4 + 4 + 32
    static let blobRecordSize = 16 + 32
    static let magic = Array("IGLOOK02".utf8)

    /// The look of gallery `key` at `path` if the cache holds one for the file as it is now;
    /// nil for anything else (no look, another revision, a damaged file), never an error: a
    /// missing look only means the page waits for the open.
    package func look(key: String, path: FilePath) -> Look? {
        guard let file = self.file(for: key), let identity = try? FileIdentity.of(path: path),
              let look = kept(in: file, identity: identity) else { return nil }
        // Used now: the folder keeps the galleries used most recently (FirstLooks+Pruning).
        GalleryFileSystem.markUsed(file)
        return look
    }

    /// Whether a look is kept for `key` at all (of whatever revision): one `stat`, so that a
    /// gallery never opened before pays nothing for looks (finding its path waits on the library,
    /// which may be reading a manifest for the listing meanwhile).
    package func mayHold(key: String) -> Bool {
        file(for: key).map { PathKind.of($0) == .regularFile } ?? false
    }

    /// The look `file` holds for the gallery file of `identity`, if it is whole.
    func kept(in file: FilePath, identity: FileIdentity) -> Look? {
        guard let bytes = Self.contents(of: file, sized: Self.headerSize ... Self.headerSize + Self.largestView + count * Self.blobRecordSize)
        else { return nil }
        return Self.decode(bytes, identity: identity, first: count)
    }

    /// The whole of the cache file `file` if its size is within `sizes`; nil otherwise, or if it
    /// cannot be read whole. The bound comes before the read: the file is hostile input.
    static func contents(of file: FilePath, sized sizes: ClosedRange<Int>) -> [UInt8]? {
        guard let handle = try? GalleryFile.openForReading(file), let size = try? handle.size,
              size >= UInt64(sizes.lowerBound), size <= UInt64(sizes.upperBound),
              let bytes = try? handle.read(at: 0, count: Int(size)), bytes.count == Int(size)
        else { return nil }
        return bytes
    }

    /// Keeps the first look of `gallery` (held by `key`, the file `fileName` whose identity is
    /// `identity`) for the next open of that file. Galleries no larger than a look are not kept:
    /// the page gets them whole at once. A write that fails leaves no look, which only costs time.
    package func store(_ gallery: Gallery, key: String, fileName: String, identity: FileIdentity) {
        guard gallery.images.count > count, let file = self.file(for: key), let listFile = self.listFile(for: key) else { return }
        // Kept whole already (an open of the revision the last open or save kept): not again.
        let lookKept = kept(in: file, identity: identity) != nil
        if lookKept, listKept(in: listFile, identity: identity) { return }
        // The owner's alone: a look holds the gallery's title, file names and captions.
        try? GalleryFileSystem.makeFolders(folder, permissions: FilePermissions(rawValue: 0o700))
        let owners = FilePermissions(rawValue: 0o600)
        // The list first: a page given the look asks for the list straight after.
        if let list = Self.encodeList(gallery.images, identity: identity) { try? GalleryFileSystem.writeWhole(list, to: listFile, permissions: owners) }
        if !lookKept {
            var view = DocumentView(key: key, fileName: fileName, gallery: gallery).windowed(first: count)
            view.early = true
            view.fileToken = Self.token(of: identity)
            if let bytes = Self.encode(view.json, blobs: gallery.images.prefix(count).map { ($0.id, $0.sha256) },
                                       identity: identity, first: count) {
                try? GalleryFileSystem.writeWhole(bytes, to: file, permissions: owners)
            }
        }
        prune(keeping: key)
    }

    /// The look's file for `key`; nil for a key that is not the desk's kind (lowercase hex,
    /// `GalleryLibrary.key(of:)`), which could name a file elsewhere.
    func file(for key: String) -> FilePath? {
        guard (1 ... 64).contains(key.utf8.count), key.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) || (0x61 ... 0x66).contains($0) })
        else { return nil }
        return folder.appending("\(key)-\(count).look")
    }
}

// The look's file: a header (magic, the gallery file's identity, the look's `first`, the view's
// length, the number of blob records, the SHA-256 of all that follows the header), the view's
// JSON, then per image named whole its id (16 bytes) and its blob's SHA-256 (32 bytes). Numbers
// little-endian.
extension FirstLooks {
    static func encode(_ view: [UInt8], blobs: [(UUID, SHA256Digest)], identity: FileIdentity, first: Int) -> [UInt8]? {
        guard view.count <= largestView, blobs.count <= first else { return nil }
        var body = view
        body.reserveCapacity(view.count + blobs.count * blobRecordSize)
        for (id, digest) in blobs {
            withUnsafeBytes(of: id.uuid) { body += $0 }
            body += digest.bytes
        }
        var bytes = magic
        bytes.reserveCapacity(headerSize + body.count)
        bytes += identityBytes(identity)
        for word in [first, view.count, blobs.count] { bytes += Self.bytes(of: UInt32(word)) }
        bytes += SHA256Hasher.of(body).bytes
        return bytes + body
    }

    static func decode(_ bytes: [UInt8], identity: FileIdentity, first: Int) -> Look? {
        guard bytes.count >= headerSize, Array(bytes[0 ..< 8]) == magic, Array(bytes[8 ..< 64]) == identityBytes(identity) else { return nil }
        func count(_ at: Int) -> Int { Int(bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }) }
        let (lookFirst, viewLength, blobCount) = (count(64), count(68), count(72))
        guard lookFirst == first, viewLength <= largestView, blobCount <= first,
              bytes.count == headerSize + viewLength + blobCount * blobRecordSize else { return nil }
        let body = bytes[headerSize...]
        guard digest(body) == Array(bytes[76 ..< headerSize]) else { return nil }
        var blobs: [UUID: SHA256Digest] = [:]
        blobs.reserveCapacity(blobCount)
        body.withUnsafeBytes { raw in
            for index in 0 ..< blobCount {
                let at = viewLength + index * blobRecordSize
                let id = UUID(uuid: raw.loadUnaligned(fromByteOffset: at, as: uuid_t.self))
                blobs[id] = SHA256Digest(bytes: UnsafeRawBufferPointer(rebasing: raw[at + 16 ..< at + blobRecordSize]))
            }
        }
        return Look(view: Array(body.prefix(viewLength)), blobs: blobs)
    }

    /// The SHA-256 of `bytes`, hashed where they lie.
    static func digest(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize().bytes
    }

    /// The identity as the header holds it: device, inode, size, then the mtime and the ctime.
    static func identityBytes(_ identity: FileIdentity) -> [UInt8] {
        var bytes: [UInt8] = []
        for word in [identity.device, identity.inode, identity.size] + [identity.modifiedSeconds, identity.modifiedNanoseconds,
                                                                          identity.changedSeconds, identity.changedNanoseconds].map(UInt64.init(bitPattern:)) {
            withUnsafeBytes(of: word.littleEndian) { bytes += $0 }
        }
        return bytes
    }

    private static func bytes(of word: UInt32) -> [UInt8] {
        withUnsafeBytes(of: word.littleEndian) { Array($0) }
    }
}
