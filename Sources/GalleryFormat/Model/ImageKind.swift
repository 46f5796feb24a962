/// An image type format 1.0 does not take, told by its leading bytes, so that a refusal can
/// say what a file is rather than only what it is not.
public enum UnsupportedImageType: String, Sendable, CaseIterable {
    /// `RIFF….WEBP`.
    case webp = "WebP"
    /// `GIF87a` or `GIF89a`.
    case gif = "GIF"
    /// An ISOBMFF `ftyp` box with the brand `avif` or `avis`.
    case avif = "AVIF"
    /// An ISOBMFF `ftyp` box with an HEVC brand (`heic`, `heix`, `hevc` and the like).
    case heic = "HEIC"
    /// HEIF whose brands name neither AVIF nor HEIC (`mif1` or `msf1` alone).
    case heif = "HEIF"
    /// Classic or BigTIFF, either byte order.
    case tiff = "TIFF"
    /// `BM` followed by a known DIB header size.
    case bmp = "BMP"
    /// A bare JPEG XL codestream, or its container's signature box.
    case jpegXL = "JPEG XL"

    /// The type's name with its article: "a WebP image", "an AVIF image".
    public var described: String { (self == .avif ? "an " : "a ") + rawValue + " image" }
}

/// What a file's leading bytes say it is: a type a gallery takes, another image type, or
/// nothing this toolkit recognises. Every path that refuses a file for its type (`create`,
/// `add`, fetching, archive import) asks here, so that they all say the same.
public enum ImageKind: Sendable, Hashable {
    /// JPEG or PNG: a gallery takes it.
    case supported(MediaType)
    /// An image type known here that format 1.0 does not take.
    case unsupported(UnsupportedImageType)
    /// No image type known here.
    case unknown

    /// The most leading bytes `identify` looks at: the ISOBMFF `ftyp` box of an AVIF or HEIC
    /// file, whose brands tell the two apart, fits in them.
    public static let identifyingBytes = 64

    /// The phrase that closes every refusal of an image type.
    public static let formatTakes = "this gallery format takes JPEG and PNG"

    /// Identifies the bytes from their start (`identifyingBytes` of them, or all there are).
    public static func identify(_ prefix: some Collection<UInt8>) -> ImageKind {
        let head = Array(prefix.prefix(identifyingBytes))
        if let type = MediaType.sniff(head) { return .supported(type) }
        return unsupportedType(head).map(ImageKind.unsupported) ?? .unknown
    }

    /// Why format 1.0 refuses these bytes, as one phrase: "a WebP image; this gallery format
    /// takes JPEG and PNG", or "not a JPEG or PNG image" when the bytes are no image type known
    /// here. Nil for JPEG and PNG.
    public var refusal: String? {
        switch self {
        case .supported: nil
        case .unsupported(let type): "\(type.described); \(Self.formatTakes)"
        case .unknown: "not a JPEG or PNG image"
        }
    }

    private static func unsupportedType(_ head: [UInt8]) -> UnsupportedImageType? {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset ..< offset + bytes.count]) == bytes
        }
        if starts("GIF87a") || starts("GIF89a") { return .gif }
        if starts("RIFF"), starts("WEBP", at: 8) { return .webp }
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
        if starts("ftyp", at: 4) { return heifType(head) }
        return nil
    }

    /// AVIF or HEIC from an ISOBMFF `ftyp` box: the major brand, then the compatible brands in
    /// their order, decide; a box that names only the generic HEIF brands is HEIF, and one of
    /// another family (an MP4 video, say) is not recognised.
    private static func heifType(_ head: [UInt8]) -> UnsupportedImageType? {
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
            if avif.contains(brand) { return .avif }
            if heic.contains(brand) { return .heic }
        }
        if brands.contains(where: { $0 == Array("mif1".utf8) || $0 == Array("msf1".utf8) }) { return .heif }
        return nil
    }
}
