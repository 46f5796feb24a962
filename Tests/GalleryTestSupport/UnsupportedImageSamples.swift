/// The first bytes of images of types no version of the format takes, written out here from
/// the formats' own layouts (no encoder needed): enough of each file for its type to show.
/// (WebP, GIF, AVIF and HEIC, which format 2.0 takes, are in Fixtures/format-2.0, whole.)
public enum UnsupportedImageSamples {
    public struct Sample: Sendable, CustomStringConvertible {
        /// The type as the refusal names it: "TIFF", "JPEG XL".
        public var type: String
        /// With its article, as in the message: "a TIFF image".
        public var described: String
        /// A file name of the kind a user has (the name plays no part in the verdict).
        public var fileName: String
        public var bytes: [UInt8]

        public var description: String { fileName }

        /// What `create`, `add` and the rest say of such a file, after its name.
        public var refusal: String { "\(described); this gallery format takes JPEG, PNG, WebP, GIF, AVIF and HEIC" }
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
    static func be32(_ value: Int) -> [UInt8] { le32(value).reversed() }
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// An ISOBMFF `ftyp` box with these brands, then the start of a `meta` box.
    static func ftyp(major: String, compatible: [String]) -> [UInt8] {
        let box = be32(16 + 4 * compatible.count) + ascii("ftyp") + ascii(major) + be32(0) + compatible.flatMap(ascii)
        return box + be32(0x00F2) + ascii("meta") + be32(0) + be32(0x21) + ascii("hdlr") + be32(0) + be32(0) + ascii("pict")
    }

    public static let all: [Sample] = [
        // HEIF with only the generic brands: neither AVIF nor HEIC by its brands.
        Sample(type: "HEIF", described: "a HEIF image", fileName: "photo.heif",
               bytes: ftyp(major: "mif1", compatible: ["mif1", "miaf"])),
        // A little-endian TIFF: header, then an IFD of one entry (ImageWidth 1).
        Sample(type: "TIFF", described: "a TIFF image", fileName: "scan.tiff",
               bytes: ascii("II") + le16(42) + le32(8) + le16(1) + le16(0x0100) + le16(3) + le32(1) + le32(1) + le32(0)),
        // A big-endian TIFF header.
        Sample(type: "TIFF", described: "a TIFF image", fileName: "scan-mm.tif",
               bytes: ascii("MM") + [0x00, 0x2A] + be32(8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x03] + be32(1) + be32(0x0001_0000) + be32(0)),
        // A 1×1 24-bit BMP: file header, BITMAPINFOHEADER, one padded row.
        Sample(type: "BMP", described: "a BMP image", fileName: "paint.bmp",
               bytes: ascii("BM") + le32(58) + le32(0) + le32(54) + le32(40) + le32(1) + le32(1) + le16(1) + le16(24)
                   + le32(0) + le32(4) + le32(2835) + le32(2835) + le32(0) + le32(0) + [0x00, 0x00, 0xFF, 0x00]),
        // A bare JPEG XL codestream: its signature FF 0A, then a size header.
        Sample(type: "JPEG XL", described: "a JPEG XL image", fileName: "photo.jxl",
               bytes: [0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90, 0x08, 0x06, 0x01, 0x00, 0x48, 0x01, 0x00, 0x4B, 0x38, 0x41]),
        // JPEG XL in its container: the signature box, then ftyp jxl.
        Sample(type: "JPEG XL", described: "a JPEG XL image", fileName: "photo-container.jxl",
               bytes: be32(12) + ascii("JXL ") + [0x0D, 0x0A, 0x87, 0x0A] + be32(20) + ascii("ftyp") + ascii("jxl ")
                   + be32(0) + ascii("jxl ") + be32(8) + ascii("jxlc")),
    ]
}
