/// EXIF orientation: how the stored pixels must be turned to be seen upright.
public enum Orientation: Int, Sendable {
    /// The eight values of the EXIF tag, in its order: 1 is upright, 2 to 4 mirror or turn by
    /// 180°, 5 to 8 (the ones that swap width and height) turn by 90° one way or the other,
    /// mirrored or not.
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// True when the upright image's width is the stored height (values 5 to 8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation tag (0x0112) of an APP1 segment's payload ("Exif\0\0" and a TIFF
    /// structure). Nil when absent or malformed: a damaged tag must not stop a thumbnail.
    package static func parse(app1 payload: [UInt8]) -> Orientation? {
        guard payload.count >= 14, Array(payload[0 ..< 6]) == Array("Exif\0\0".utf8) else { return nil }
        let tiff = Array(payload[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for index in 0 ..< min(count, 1000) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT, count 1: the value sits in the first two bytes of the value field.
            guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
            return Orientation(rawValue: value)
        }
        return nil
    }
}

