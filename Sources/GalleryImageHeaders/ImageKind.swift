/// An image type no version of the format takes, told by its leading bytes, so that a refusal
/// can say what a file is rather than only what it is not.
public enum UnsupportedImageType: String, Sendable, CaseIterable {
    /// HEIF whose brands name neither AVIF nor HEIC (`mif1` or `msf1` alone).
    case heif = "HEIF"
    /// Classic or BigTIFF, either byte order.
    case tiff = "TIFF"
    /// `BM` followed by a known DIB header size.
    case bmp = "BMP"
    /// A bare JPEG XL codestream, or its container's signature box.
    case jpegXL = "JPEG XL"

    /// The type's name with its article: "a TIFF image", "a JPEG XL image".
    public var described: String { "a " + rawValue + " image" }
}

/// What a file's leading bytes say it is: a type a gallery takes, another image type, or
/// nothing this toolkit recognises. Every path that refuses a file for its type (`create`,
/// `add`, fetching, archive import) asks here, so that they all say the same.
public enum ImageKind: Sendable, Hashable {
    /// A type a gallery takes (format 2.0 for all but JPEG and PNG).
    case supported(MediaType)
    /// An image type known here that the format does not take.
    case unsupported(UnsupportedImageType)
    /// No image type known here.
    case unknown

    /// The most leading bytes `identify` looks at: the ISOBMFF `ftyp` box of an AVIF or HEIC
    /// file, whose brands tell the two apart, fits in them.
    public static let identifyingBytes = 64

    /// The phrase that closes every refusal of an image type.
    public static let formatTakes = "this gallery format takes " + MediaType.names(MediaType.allCases)

    /// What a refusal of bytes of no known image type says.
    public static let notAnImage = "not a " + MediaType.allCases.map(\.name).dropLast().joined(separator: ", ") + " or "
        + MediaType.allCases.last!.name + " image"

    /// Identifies the bytes from their start (`identifyingBytes` of them, or all there are).
    public static func identify(_ prefix: some Collection<UInt8>) -> ImageKind {
        let head = Array(prefix.prefix(identifyingBytes))
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset ..< offset + bytes.count]) == bytes
        }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .supported(.jpeg) }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .supported(.png) }
        if starts("GIF87a") || starts("GIF89a") { return .supported(.gif) }
        if starts("RIFF"), starts("WEBP", at: 8) { return .supported(.webp) }
        if starts("ftyp", at: 4), let kind = heifKind(head) { return kind }
        return unsupportedType(head).map(ImageKind.unsupported) ?? .unknown
    }

    /// Why the format refuses these bytes, as one phrase: "a TIFF image; this gallery format
    /// takes JPEG, PNG, WebP, GIF, AVIF and HEIC", or ``notAnImage`` when the bytes are no image
    /// type known here. Nil for a type the format takes.
    public var refusal: String? {
        switch self {
        case .supported: nil
        case .unsupported(let type): "\(type.described); \(Self.formatTakes)"
        case .unknown: Self.notAnImage
        }
    }

    /// Why these bytes are refused where only `accepted` types are taken (`--accept`): as
    /// ``refusal``, and for a type the format takes but the caller does not, "a WebP image;
    /// only JPEG and PNG are accepted here".
    public func refusal(accepting accepted: Set<MediaType>) -> String? {
        guard case .supported(let type) = self else { return refusal }
        guard !accepted.contains(type) else { return nil }
        return "\(type.described); only \(MediaType.names(accepted)) \(accepted.count == 1 ? "is" : "are") accepted here"
    }

    private static func unsupportedType(_ head: [UInt8]) -> UnsupportedImageType? {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset ..< offset + bytes.count]) == bytes
        }
        // Classic and BigTIFF, both byte orders.
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || head.starts(with: [0x49, 0x49, 0x2B, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) {
            return .tiff
        }
        // "BM" alone starts too much text; the size of the DIB header after the file header
        // (at byte 14) is one of the few the format has.
        if starts("BM"), head.count >= 18 {
            let dibSize = UInt32(head[14]) | UInt32(head[15]) << 8 | UInt32(head[16]) << 16 | UInt32(head[17]) << 24
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(dibSize) { return .bmp }
        }
        // JPEG XL: a bare codestream, or the ISOBMFF-style container's signature box.
        if head.starts(with: [0xFF, 0x0A])
            || head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .jpegXL
        }
        return nil
    }

    /// AVIF or HEIC from an ISOBMFF `ftyp` box: the major brand, then the compatible brands in
    /// their order, decide; a box that names only the generic HEIF brands is HEIF, and one of
    /// another family (an MP4 video, say) is not recognised. The header reader then holds the
    /// file to the codec of its primary item.
    private static func heifKind(_ head: [UInt8]) -> ImageKind? {
        guard head.count >= 12 else { return nil }
        let declared = Int(UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3]))
        // A size below 16 (0 "to the end of the file", 1 "64-bit size" among them) leaves only
        // the major brand to go by.
        let end = min(declared >= 16 ? declared : 16, head.count)
        var brands = [Array(head[8 ..< 12])]
        var offset = 16
        while offset + 4 <= end {
            brands.append(Array(head[offset ..< offset + 4]))
            offset += 4
        }
        let avif = ["avif", "avis"].map { Array($0.utf8) }
        let heic = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"].map { Array($0.utf8) }
        for brand in brands {
            if avif.contains(brand) { return .supported(.avif) }
            if heic.contains(brand) { return .supported(.heic) }
        }
        if brands.contains(where: { $0 == Array("mif1".utf8) || $0 == Array("msf1".utf8) }) { return .unsupported(.heif) }
        return nil
    }
}
