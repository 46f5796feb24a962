internal import CGalleryChecksum

/// Running CRC-32 (ZIP, PNG): carry-less multiplication where the CPU has it, zlib otherwise.
public struct CRC32: Sendable {
    /// The CRC-32 of every byte given so far, as ZIP and PNG store it; 0 before any.
    public private(set) var value: UInt32 = 0

    /// A checksum of no bytes yet.
    public init() {}

    /// Adds the bytes of `buffer` to the checksum. Any length: a buffer over 1 GiB is passed on
    /// in 1 GiB pieces, as the zlib fallback takes a 32-bit length.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var left = buffer.count
        var crc = value
        // zlib's fallback takes a 32-bit length.
        while left > 0 {
            let chunk = Swift.min(left, 1 << 30)
            crc = ig_crc32(crc, base, chunk)
            base += chunk
            left -= chunk
        }
        value = crc
    }

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The CRC-32 of `bytes`, for data that is all in memory at once.
    public static func of(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}

/// Running SHA-256 (CGalleryChecksum: the CPU's SHA extensions where it has them, as fast as
/// BoringSSL's; plain C otherwise).
public struct SHA256Hasher: Sendable {
    private var state = ig_sha256()

    /// A hasher that has seen no bytes yet.
    public init() { ig_sha256_init(&state, 0) }

    /// A hasher that never uses the SHA extensions, so that tests can hold both paths to the
    /// same digests.
    package init(portable: Bool) { ig_sha256_init(&state, portable ? 1 : 0) }

    /// Adds the bytes of `buffer` to the hash.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        ig_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), buffer.count)
    }

    /// Adds `bytes` to the hash.
    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The SHA-256 digest of every byte given so far.
    public func finalize() -> SHA256Digest {
        var digest = [UInt8](repeating: 0, count: 32)
        withUnsafePointer(to: state) { ig_sha256_final($0, &digest) }
        return digest.withUnsafeBytes { SHA256Digest(bytes: $0) }
    }

    /// The SHA-256 digest of `bytes`, for data that is all in memory at once.
    public static func of(_ bytes: [UInt8]) -> SHA256Digest {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }
}

/// SHA-1 of one buffer, for name-based UUIDs (never for integrity).
package enum SHA1 {
    package static func of(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        ig_sha1(bytes, bytes.count, &digest)
        return digest
    }
}
