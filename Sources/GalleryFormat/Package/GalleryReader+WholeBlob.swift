import GalleryImageHeaders
internal import GallerySystem
import Synchronization

extension GalleryReader {
    /// An image's bytes, read whole, handed to `use` while their SHA-256 is checked on another
    /// thread. The size, CRC-32 and type are checked as ``readBlob(_:sink:)`` checks them. What
    /// `use` returns is given back only once the digest agrees, so nothing made from bytes that
    /// fail the manifest leaves here. Work that takes longer than the hash (a thumbnail's decode
    /// of a 24 MP photo: 55 ms against 3 ms) then pays nothing for the hash. With `readBlob`
    /// the hash came first, and a second core idled through it (RESULTS.md ac.4.14, ac.4.15).
    ///
    /// `use` sees the bytes before their digest is known, as `readBlob`'s sink does, so it must
    /// take them as hostile. Every decoder of a gallery's blobs does, since whoever writes a blob
    /// writes its digest too. A read the system refuses a thread for hashes first, as `readBlob`.
    ///
    /// The caller bounds the image's size first: the bytes are held whole.
    ///
    /// - Throws: ``GalleryError`` as ``readBlob(_:sink:)`` does, in its order: a hash mismatch
    ///   comes before a type mismatch, and before whatever `use` threw, since bytes that are
    ///   not the manifest's explain any failure to use them. Otherwise whatever `use` throws.
    package func withBlob<Made>(_ image: GalleryImage, _ use: ([UInt8]) throws -> Made) throws -> Made {
        let entry = try blobEntry(for: image)
        let here = Location(file: path, entry: entry.name)
        try Self.checkSize(of: entry, against: image, here)
        // Memory the kernel may back with 2 MiB pages: a 24 MP photo's 4.9 MB, faulted in 4 KiB
        // at a time, cost 1,200 faults before its decode could start (RESULTS.md, ac.4.17).
        let size = Int(clamping: image.byteSize)
        let whole = try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            let memory = UnsafeMutableRawBufferPointer(buffer)
            HugePages.advise(memory)
            try archive.read(entry) { chunk in
                // The read stops at the entry's declared size, which `checkSize` held to this.
                guard count + chunk.count <= size else {
                    throw GalleryError(.blobSizeMismatch, "the entry holds more than the manifest's \(size) bytes", location: here)
                }
                UnsafeMutableRawBufferPointer(rebasing: memory[count...]).copyMemory(from: chunk)
                count += chunk.count
            }
        }
        let digest = Mutex<SHA256Digest?>(nil)
        // Bytes of another type are never handed out (format section 5), so their check comes
        // before `use`; the digest is waited for first, so that the errors come in readBlob's order.
        let sniffed = MediaType.sniff(Array(whole.prefix(ImageKind.identifyingBytes)))
        // A small stack: under an address-space cap the decode's budget was set without this thread.
        let hashing = sniffed == image.mediaType
            ? SystemThread.start(stackBytes: 256 << 10) { digest.withLock { $0 = SHA256Hasher.of(whole) } } : nil
        let made = hashing.map { _ in Result { try use(whole) } }
        hashing?.join()
        try Self.checkDigest(digest.withLock { $0 } ?? SHA256Hasher.of(whole), against: image, here)
        try Self.checkType(sniffed, against: image, here)
        return try (made ?? Result { try use(whole) }).get()
    }
}
