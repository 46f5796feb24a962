import FoundationEssentials
import GalleryFormat

// The `images` member of a view, written byte by byte: the writer's value tree allocates a
// dozen times an image, which at 100,000 images was most of a view's time. The bytes are those
// the format's writer gives (keys in byte order, compact, the same minimal escapes), which
// DocumentViewTests holds it to.
extension DocumentView {
    package static func imagesJSON(_ images: [GalleryImage]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(images.count * 130 + 2)
        out.append(0x5B)
        for (index, image) in images.enumerated() {
            if index > 0 { out.append(0x2C) }
            out.append(0x7B)
            if let caption = image.caption {
                member("caption", &out)
                string(caption, &out)
                out.append(0x2C)
            }
            if let filename = image.filename {
                member("filename", &out)
                string(filename, &out)
                out.append(0x2C)
            }
            member("height", &out)
            integer(image.height, &out)
            out.append(0x2C)
            member("id", &out)
            uuid(image.id, &out)
            out.append(0x2C)
            member("mediaType", &out)
            string(image.mediaType.rawValue, &out)
            out.append(0x2C)
            member("width", &out)
            integer(image.width, &out)
            out.append(0x7D)
        }
        out.append(0x5D)
        return out
    }

    private static func member(_ name: StaticString, _ out: inout [UInt8]) {
        out.append(0x22)
        name.withUTF8Buffer { out += $0 }
        out += [0x22, 0x3A]
    }

    /// The id's manifest form (lowercase, hyphenated), without a `String` between.
    private static func uuid(_ id: UUID, _ out: inout [UInt8]) {
        out.append(0x22)
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(0x2D) }
                out.append(hex(byte >> 4))
                out.append(hex(byte & 0x0F))
            }
        }
        out.append(0x22)
    }

    private static func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }

    /// A whole number in decimal, without a `String` between.
    private static func integer(_ value: Int, _ out: inout [UInt8]) {
        guard value != 0 else { out.append(0x30); return }
        if value < 0 { out.append(0x2D) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// A JSON string with the format writer's escapes, by the format writer's own code.
    private static func string(_ text: String, _ out: inout [UInt8]) { CanonicalJSONWriter.appendString(text, to: &out) }
}
