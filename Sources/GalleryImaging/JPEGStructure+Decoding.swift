import GalleryImageHeaders

// The JPEG structure reader (GalleryImageHeaders) refuses a malformed file with the header
// reader's error; a decoder reports that refusal as a corrupt image, its message unchanged and
// the refusal kept underneath.
extension JPEGStructure {
    /// ``frame(size:read:)``, a refusal thrown as ``ImageDecodeError`` (corrupt).
    static func decodingFrame(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> JPEGStructure {
        try corruptWhenRefused { try frame(size: size, read: read) }
    }

    /// ``parse(_:)``, a refusal thrown as ``ImageDecodeError`` (corrupt).
    static func decodingParse(_ bytes: UnsafeRawBufferPointer) throws -> JPEGStructure {
        try corruptWhenRefused { try parse(bytes) }
    }

    private static func corruptWhenRefused(_ body: () throws -> JPEGStructure) throws -> JPEGStructure {
        do {
            return try body()
        } catch let error as ImageHeaderError {
            throw ImageDecodeError(.corrupt, error.message, underlying: error)
        }
    }
}
