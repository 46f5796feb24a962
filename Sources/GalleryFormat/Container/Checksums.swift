internal import CGalleryChecksum
import Crypto

/// Running CRC-32 (ZIP, PNG): carry-less multiplication where the CPU has it, zlib otherwise.
public struct CRC32: Sendable {
    public private(set) var value: UInt32 = 0

    public init() {}

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

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public static func of(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}

/// Running SHA-256 (BoringSSL through swift-crypto: uses the CPU's SHA extensions).
public struct SHA256Hasher {
    private var hasher = Crypto.SHA256()

    public init() {}

    public mutating func update(_ buffer: UnsafeRawBufferPointer) { hasher.update(bufferPointer: buffer) }

    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    public func finalize() -> SHA256Digest {
        let digest = hasher.finalize()
        return digest.withUnsafeBytes { SHA256Digest(bytes: $0) }
    }

    public static func of(_ bytes: [UInt8]) -> SHA256Digest {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
