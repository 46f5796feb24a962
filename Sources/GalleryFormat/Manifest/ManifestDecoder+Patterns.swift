import FoundationEssentials
import GalleryImageHeaders
import func Glibc.memcmp

/// The schema's string patterns (blob paths, absolute URIs), checked on bytes.
extension ManifestDecoder {
    /// `images/` + the 64 hex digits + `.jpg` or `.png` as the media type says.
    static func isBlobPath(_ path: UnsafeRawBufferPointer, sha256Hex: UnsafeRawBufferPointer, mediaType: MediaType) -> Bool {
        // "images/" is 7 bytes, then the digest, a dot and the type's extension.
        let suffix = mediaType.blobSuffix
        guard path.count == 7 + 64 + suffix.utf8CodeUnitCount, sha256Hex.count == 64, let base = path.baseAddress else { return false }
        return memcmp(base, "images/", 7) == 0 && memcmp(base + 7, sha256Hex.baseAddress!, 64) == 0
            && memcmp(base + 71, suffix.utf8Start, suffix.utf8CodeUnitCount) == 0
    }

    /// The media type whose name the bytes are, compared without making a String of them.
    static func mediaType(_ name: UnsafeRawBufferPointer) -> MediaType? {
        mediaTypeBytes.first { candidate in
            candidate.name.count == name.count
                && candidate.name.withUnsafeBytes { memcmp($0.baseAddress!, name.baseAddress!, name.count) } == 0
        }?.type
    }

    private static let mediaTypeBytes = MediaType.allCases.map { (type: $0, name: Array($0.rawValue.utf8)) }

    /// RFC 3986 as the schema's pattern says: a scheme, `:`, then only URI characters and
    /// well-formed percent escapes (ASCII only; internationalised URLs are percent-encoded).
    static func isAbsoluteURI(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isAbsoluteURI(utf8: UnsafeRawBufferPointer($0)) }
    }

    static func isAbsoluteURI(utf8 bytes: UnsafeRawBufferPointer) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              bytes[0] | 0x20 >= 0x61, bytes[0] | 0x20 <= 0x7A
        else { return false }
        let schemeOK = bytes[..<colon].allSatisfy { b in
            (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E
        }
        guard schemeOK else { return false }
        func isHex(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) }
        var index = colon + 1
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard uriCharacters.contains(b) else { return false }
            index += 1
        }
        return true
    }

    /// Unreserved, general and sub-delimiters of RFC 3986.
    static let uriCharacters = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8))

}
