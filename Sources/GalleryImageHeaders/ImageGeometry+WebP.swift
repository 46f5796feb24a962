// WebP (RFC 9649): a RIFF file of chunks. The size is in the first chunk: VP8 (lossy, its
// key frame's header), VP8L (lossless, 14-bit sizes after the 0x2F signature) or VP8X (the
// extended format's canvas, 24-bit sizes), whose flags say alpha and animation; an animation's
// frames are its ANMF chunks, each of which must lie on the canvas.
extension ImageGeometry {
    package static func webP(size: UInt64, limits: HeaderLimits = HeaderLimits(),
                             read: @escaping (UInt64, Int) throws -> [UInt8]) throws -> ImageGeometry {
        var source = HeaderSource(size: size, read: read)
        let riff = try source.bytes(at: 0, count: 12, "the RIFF header")
        guard riff.fourCC(0) == "RIFF", riff.fourCC(8) == "WEBP" else {
            throw ImageHeaderError("not a WebP file (no RIFF…WEBP header)", offset: 0)
        }
        let end = riff.le32(4).addingSaturating(8)
        guard end <= size else {
            throw ImageHeaderError("the RIFF size says \(end) bytes, the file has \(size): truncated", offset: 4)
        }
        var offset: UInt64 = 12
        var geometry: ImageGeometry?
        var animated = false
        var canvas = (width: 0, height: 0)
        var frames = 0
        var chunks = 0
        while offset + 8 <= end {
            chunks += 1
            guard chunks <= limits.boxes else { throw ImageHeaderError("more than \(limits.boxes) RIFF chunks", offset: offset) }
            let header = try source.bytes(at: offset, count: 8, "a chunk header")
            let (type, length) = (header.fourCC(0), header.le32(4))
            let named = String.shownFourCC(header[0 ..< 4])
            let data = offset + 8
            guard data.addingSaturating(length) <= end else {
                throw ImageHeaderError("the \(named) chunk's size (\(length)) runs past the RIFF data", offset: offset)
            }
            switch type {
            case "VP8X" where offset == 12:
                let body = try source.bytes(at: data, count: 10, "the VP8X chunk")
                animated = body[0] & 0x02 != 0
                canvas = (body.le24(4) + 1, body.le24(7) + 1)
                guard canvas.width <= limits.dimension, canvas.height <= limits.dimension else {
                    throw ImageHeaderError("the canvas, \(canvas.width) × \(canvas.height), is larger than \(limits.dimension) on a side",
                                           offset: data)
                }
                geometry = ImageGeometry(width: canvas.width, height: canvas.height, hasAlpha: body[0] & 0x10 != 0)
            case "VP8 ", "VP8L":
                let still = try frameSize(type, at: data, length: length, &source)
                if geometry == nil {  // a simple file: this is its first chunk
                    geometry = ImageGeometry(width: still.width, height: still.height, hasAlpha: still.alpha)
                } else if !animated, (still.width, still.height) != canvas {
                    throw ImageHeaderError("the image is \(still.width) × \(still.height), its VP8X canvas "
                                           + "\(canvas.width) × \(canvas.height)", offset: offset, problem: .declaredSizeContradicted)
                }
            case "ANMF" where animated:
                frames += 1
                guard frames <= limits.frames else { throw ImageHeaderError("more than \(limits.frames) frames", offset: offset) }
                let frame = try source.bytes(at: data, count: 16, "an ANMF chunk")
                let (x, y) = (frame.le24(0) * 2, frame.le24(3) * 2)
                let (width, height) = (frame.le24(6) + 1, frame.le24(9) + 1)
                guard x + width <= canvas.width, y + height <= canvas.height else {
                    throw ImageHeaderError("frame \(frames) (\(width) × \(height) at \(x), \(y)) lies outside the "
                                           + "\(canvas.width) × \(canvas.height) canvas", offset: offset)
                }
                // The frame's own bitstream against its ANMF size (IG-BLB-019: ImageGeometry+CodedSize.swift).
                try checkFrameBitstream(frames, width: width, height: height, from: data + 16, to: data + length, &source)
            default:
                if offset == 12 { throw ImageHeaderError("the first chunk is \(named), not VP8, VP8L or VP8X", offset: 12) }
            }
            // Chunks are padded to an even size.
            offset = data.addingSaturating(length).addingSaturating(length & 1)
        }
        guard var found = geometry else { throw ImageHeaderError("no VP8, VP8L or VP8X chunk", offset: 12) }
        if animated {
            guard frames > 0 else { throw ImageHeaderError("an animation (VP8X) with no ANMF frame", offset: 12) }
            found.frameCount = frames
        }
        guard found.width <= limits.dimension, found.height <= limits.dimension else {
            throw ImageHeaderError("\(found.width) × \(found.height) is larger than \(limits.dimension) on a side", offset: 12)
        }
        return found
    }

    /// The size a VP8 key frame or a VP8L header states.
    static func frameSize(_ type: String, at data: UInt64, length: UInt64,
                          _ source: inout HeaderSource) throws -> (width: Int, height: Int, alpha: Bool) {
        if type == "VP8L" {
            let head = try source.bytes(at: data, count: 5, "the VP8L header")
            guard head[0] == 0x2F else { throw ImageHeaderError("the VP8L signature is not 0x2F", offset: data) }
            let bits = head.le32(1)
            guard bits >> 29 == 0 else { throw ImageHeaderError("VP8L version \(bits >> 29), not 0", offset: data) }
            return (Int(bits & 0x3FFF) + 1, Int(bits >> 14 & 0x3FFF) + 1, bits >> 28 & 1 == 1)
        }
        let head = try source.bytes(at: data, count: 10, "the VP8 frame header")
        guard head[0] & 1 == 0 else { throw ImageHeaderError("the VP8 frame is not a key frame", offset: data) }
        guard head[3 ..< 6].elementsEqual([0x9D, 0x01, 0x2A]) else {
            throw ImageHeaderError("the VP8 start code is missing", offset: data + 3)
        }
        let (width, height) = (head.le16(6) & 0x3FFF, head.le16(8) & 0x3FFF)
        guard width > 0, height > 0 else { throw ImageHeaderError("the VP8 frame is \(width) × \(height)", offset: data + 6) }
        return (width, height, false)
    }
}
