internal import CGalleryChecksum
import Crypto

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

/// Running SHA-256 (BoringSSL through swift-crypto: uses the CPU's SHA extensions).
public struct SHA256Hasher {
    private var hasher = Crypto.SHA256()

    /// A hasher that has seen no bytes yet.
    public init() {}

    /// Adds the bytes of `buffer` to the hash.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) { hasher.update(bufferPointer: buffer) }

    /// Adds `bytes` to the hash.
    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The SHA-256 digest of every byte given so far.
    public func finalize() -> SHA256Digest {
        let digest = hasher.finalize()
        return digest.withUnsafeBytes { SHA256Digest(bytes: $0) }
    }

    /// The SHA-256 digest of `bytes`, for data that is all in memory at once.
    public static func of(_ bytes: [UInt8]) -> SHA256Digest {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
