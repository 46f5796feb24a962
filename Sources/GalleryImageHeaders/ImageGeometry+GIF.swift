// GIF (89a): the logical screen's size is the image's. The blocks after it are walked to the
// trailer without decoding: each image descriptor is a frame, a graphic control extension with
// its transparency flag set means alpha, and data sub-blocks are skipped by their lengths.
extension ImageGeometry {
    package static func gif(size: UInt64, limits: HeaderLimits = HeaderLimits(),
                            read: @escaping (UInt64, Int) throws -> [UInt8]) throws -> ImageGeometry {
        var source = HeaderSource(size: size, read: read)
        let screen = try source.bytes(at: 0, count: 13, "the logical screen descriptor")
        guard screen[0 ..< 6].elementsEqual(Array("GIF87a".utf8)) || screen[0 ..< 6].elementsEqual(Array("GIF89a".utf8)) else {
            throw ImageHeaderError("not a GIF file (no GIF87a or GIF89a signature)", offset: 0)
        }
        var geometry = ImageGeometry(width: screen.le16(6), height: screen.le16(8), frameCount: 0)
        guard geometry.width > 0, geometry.height > 0 else {
            throw ImageHeaderError("the logical screen is \(geometry.width) × \(geometry.height)", offset: 6)
        }
        var offset: UInt64 = 13 + colourTable(screen[10])
        while true {
            let introducer = try source.bytes(at: offset, count: 1, "a block (the trailer 0x3B is missing)")[0]
            switch introducer {
            case 0x3B:
                guard geometry.frameCount > 0 else { throw ImageHeaderError("no image in the file", offset: offset) }
                return geometry
            case 0x2C:
                geometry.frameCount += 1
                guard geometry.frameCount <= limits.frames else {
                    throw ImageHeaderError("more than \(limits.frames) frames", offset: offset)
                }
                let descriptor = try source.bytes(at: offset, count: 11, "an image descriptor")
                guard descriptor.le16(5) > 0, descriptor.le16(7) > 0 else {
                    throw ImageHeaderError("frame \(geometry.frameCount) is \(descriptor.le16(5)) × \(descriptor.le16(7))", offset: offset)
                }
                let area = descriptor.le16(5) * descriptor.le16(7)
                if geometry.frameCount == 1, area > geometry.width * geometry.height {
                    geometry.firstFrameArea = area
                }
                offset += 10 + colourTable(descriptor[9])
                let codeSize = try source.bytes(at: offset, count: 1, "the LZW minimum code size")[0]
                guard (2 ... 8).contains(codeSize) else {
                    throw ImageHeaderError("an LZW minimum code size of \(codeSize) (2 to 8)", offset: offset)
                }
                offset = try skipSubBlocks(from: offset + 1, &source)
            case 0x21:
                let label = try source.bytes(at: offset + 1, count: 1, "an extension label")[0]
                if label == 0xF9 {
                    let control = try source.bytes(at: offset + 2, count: 2, "a graphic control extension")
                    if control[0] >= 4, control[1] & 1 == 1 { geometry.hasAlpha = true }
                }
                offset = try skipSubBlocks(from: offset + 2, &source)
            default:
                throw ImageHeaderError("a block introduced by 0x\(String(introducer, radix: 16)), not an image, an extension or the trailer",
                                       offset: offset)
            }
        }
    }

    /// The bytes of a global or local colour table its flags byte announces.
    private static func colourTable(_ flags: UInt8) -> UInt64 {
        flags & 0x80 == 0 ? 0 : 3 << (UInt64(flags & 0x07) + 1)
    }

    /// Past a run of data sub-blocks and its zero terminator.
    private static func skipSubBlocks(from start: UInt64, _ source: inout HeaderSource) throws -> UInt64 {
        var offset = start
        while true {
            let length = try source.bytes(at: offset, count: 1, "a data sub-block")[0]
            offset += 1
            if length == 0 { return offset }
            offset += UInt64(length)
        }
    }
}
