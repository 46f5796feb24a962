import GalleryFormat

/// HMAC-SHA-256 (RFC 2104) of a launch key's nonce, over the project's own SHA-256.
///
/// This MAC and two short digests were all the editor took from swift-crypto, and that package
/// cost every debug build a second copy of BoringSSL to compile (Benchmarks/RESULTS.md, "Where
/// `make test`'s minutes go"). RFC 4231's vectors hold it to the standard (LaunchKeyMACTests).
enum LaunchKeyMAC {
    /// SHA-256's block size: a longer key is hashed first, a shorter one padded with zeros.
    static let blockSize = 64

    /// The 32-byte HMAC-SHA-256 of `message` under `key`.
    static func code(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256Hasher.of(key).bytes : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256Hasher()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256Hasher()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize().bytes)
        return outer.finalize().bytes
    }

    /// Whether `mac` is `message`'s code under `key`, compared in constant time.
    static func isValid(_ mac: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        EditorAccess.constantTimeEqual(mac, code(for: message, key: key))
    }
}
