internal import CGalleryChecksum

/// Running CRC-32 (ZIP, PNG): carry-less multiplication where the CPU has it, zlib otherwise.
public struct CRC32: Sendable {
    /// The CRC-32 of every byte given so far, as ZIP and PNG store it; 0 before any.
    public private(set) var value: UInt32 = 0
    private var path = ig_crc32_path(ChecksumPath.CRC32.best.rawValue)

    /// A checksum of no bytes yet.
    public init() {}

    /// A checksum by one way of computing it, which the processor must have: the tests hold
    /// each to zlib's.
    package init(path: ChecksumPath.CRC32) {
        precondition(path.unavailableBecause == nil, "CRC-32 by \(path): \(path.unavailableBecause ?? "")")
        self.path = ig_crc32_path(path.rawValue)
    }

    /// Adds the bytes of `buffer` to the checksum. Any length: a buffer over 1 GiB is passed on
    /// in 1 GiB pieces, as the zlib fallback takes a 32-bit length.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var left = buffer.count
        var crc = value
        // zlib's fallback takes a 32-bit length.
        while left > 0 {
            let chunk = Swift.min(left, 1 << 30)
            crc = ig_crc32_by(path, crc, base, chunk)
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

/// Running SHA-256 (CGalleryChecksum: the CPU's SHA extensions where it has them; else
/// libcrypto's for long runs, plain C for short ones and where libcrypto is missing).
public struct SHA256Hasher: Sendable {
    private var state = ig_sha256()

    /// A hasher that has seen no bytes yet.
    public init() { ig_sha256_init(&state, IG_SHA256_BEST) }

    /// A hasher by one path, which must be available here: the tests hold every path to the
    /// same digests.
    package init(path: ChecksumPath.SHA256) {
        precondition(path.unavailableBecause == nil, "SHA-256 by \(path): \(path.unavailableBecause ?? "")")
        ig_sha256_init(&state, ig_sha256_path(path.rawValue))
    }

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

/// The ways the checksums can be computed on this processor, each forced in turn by the tests.
package enum ChecksumPath {
    /// SHA-256's.
    package enum SHA256: UInt32, CaseIterable, Sendable, CustomStringConvertible {
        case best = 0, portable = 1, shaExtensions = 2, libcrypto = 3
        /// The best path as it runs on a processor without the SHA extensions.
        case bestWithoutSHAExtensions = 4

        /// Why this path cannot run here; nil when it can.
        package var unavailableBecause: String? {
            var reason: UnsafePointer<CChar>?
            return ig_sha256_path_available(ig_sha256_path(rawValue), &reason) != 0 ? nil : reason.map { String(cString: $0) } ?? "unknown"
        }

        package var description: String {
            switch self {
            case .best: "the best path"
            case .portable: "plain C"
            case .shaExtensions: "the SHA extensions"
            case .libcrypto: "libcrypto"
            case .bestWithoutSHAExtensions: "the best path without the SHA extensions"
            }
        }
    }

    /// CRC-32's.
    package enum CRC32: UInt32, CaseIterable, Sendable, CustomStringConvertible {
        case best = 0, zlib = 1, pclmul = 2, vpclmul = 3

        /// Why this path cannot run here; nil when it can.
        package var unavailableBecause: String? {
            var reason: UnsafePointer<CChar>?
            return ig_crc32_path_available(ig_crc32_path(rawValue), &reason) != 0 ? nil : reason.map { String(cString: $0) } ?? "unknown"
        }

        package var description: String {
            switch self {
            case .best: "the best path"
            case .zlib: "zlib"
            case .pclmul: "PCLMULQDQ"
            case .vpclmul: "VPCLMULQDQ"
            }
        }
    }
}
