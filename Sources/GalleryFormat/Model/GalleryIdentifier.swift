import FoundationEssentials

extension UUID {
    /// The lowercase RFC 9562 text form the manifest uses. Written here, not through
    /// `uuidString` (`sprintf`, then a lowercased copy): a view or a save of 10,000 images
    /// writes 10,000 of them.
    package var manifestString: String {
        String(unsafeUninitializedCapacity: 36) { text in
            CanonicalJSONWriter.writeUUID(self, into: UnsafeMutableRawPointer(text.baseAddress!))
            return 36
        }
    }

    /// A name-based (version 5, SHA-1) UUID: the same namespace and name give the same id.
    package static func nameBased(namespace: UUID, name: String) -> UUID {
        var input = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        input.append(contentsOf: name.utf8)
        var bytes = Array(SHA1.of(input).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Parses the 36-character text form from ASCII bytes, either case.
    init?(textBytes b: UnsafeRawBufferPointer) {
        guard b.count == 36, b[8] == 0x2D, b[13] == 0x2D, b[18] == 0x2D, b[23] == 0x2D else { return nil }
        func four(_ at: Int) -> UInt64 { UInt64(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        func eight(_ at: Int) -> UInt64 { UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        // The 32 digits as four words of eight, in the text's order: the groups of four in pairs.
        guard let first = HexTable.anyCaseValue(eight(0)),
              let second = HexTable.anyCaseValue(four(9) | four(14) << 32),
              let third = HexTable.anyCaseValue(four(19) | four(24) << 32),
              let fourth = HexTable.anyCaseValue(eight(28)) else { return nil }
        var out: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &out) { bytes in
            bytes.storeBytes(of: (UInt64(first) << 32 | UInt64(second)).bigEndian, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: (UInt64(third) << 32 | UInt64(fourth)).bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        self.init(uuid: out)
    }
}

extension GalleryNamespace {
    /// The namespace of name-based document ids made by `imagegallery create`.
    package static let documents = UUID(uuidString: "6B1E3C2A-9D4F-5E8A-B7C1-2F3D4E5A6B7C")!
}

/// Fixed UUID namespaces of this project.
package enum GalleryNamespace {}
