#if canImport(Glibc)
import func Glibc.memchr
#endif

/// The layout of a JPEG file that decides what decoding it costs: its frame, its components'
/// sampling and its number of scans. Read by walking the marker segments, not by decoding.
/// A malformed file is refused with an ``ImageHeaderError`` without an offset (its message
/// says where); the decoders report it as a corrupt image.
package struct JPEGStructure: Sendable, Equatable {
    package struct Component: Sendable, Equatable {
        package var horizontal: Int
        package var vertical: Int
    }

    package var width: Int
    package var height: Int
    package var progressive: Bool
    package var components: [Component]
    /// Start-of-scan markers; 0 when only the frame was read.
    package var scans: Int = 0
    /// From the EXIF block before the frame, if any.
    package var orientation: Orientation = .up

    /// Reads segments through `read(offset, count)` up to the frame header; the entropy-coded
    /// data is not touched, so a multi-megabyte file costs a few small reads.
    package static func frame(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> JPEGStructure {
        var orientation = Orientation.up
        var frame: JPEGStructure?
        try walkSegments(size: size, read: read) { code, at, length in
            if code == 0xE1, orientation == .up, let found = Orientation.parse(app1: try read(at + 4, length - 2)) {
                orientation = found
            }
            guard isFrame(code) else { return true }
            frame = try parseFrame(code: code, segment: read(at + 4, length - 2), at: at)
            return false
        }
        guard var structure = frame else { throw ImageHeaderError("the JPEG has no frame header") }
        structure.orientation = orientation
        return structure
    }

    /// Walks the marker segments after the start-of-image marker up to the first scan or the
    /// end of the image, calling `visit(code, offset, length)` for each segment with a length
    /// until it returns false; at most 4,096 segments. Throws when the file does not start as a
    /// JPEG, or on a segment whose length is below 2.
    static func walkSegments(size: UInt64, read: (UInt64, Int) throws -> [UInt8],
                             _ visit: (UInt8, UInt64, Int) throws -> Bool) throws {
        guard try read(0, 2) == [0xFF, 0xD8] else { throw ImageHeaderError("not a JPEG (no start-of-image marker)") }
        var offset: UInt64 = 2
        for _ in 0 ..< 4096 {
            guard let (code, at) = try nextMarker(from: offset, read: read) else { return }
            if code == 0xD9 || code == 0xDA { return }
            if code == 0x01 || (0xD0 ... 0xD7).contains(code) { offset = at + 2; continue }
            let lengthBytes = try read(at + 2, 2)
            guard lengthBytes.count == 2 else { return }
            let length = Int(lengthBytes[0]) << 8 | Int(lengthBytes[1])
            guard length >= 2 else {
                throw ImageHeaderError("JPEG segment at byte \(at) has the invalid length \(length)")
            }
            guard try visit(code, at, length) else { return }
            offset = at + 2 + UInt64(length)
            guard offset < size else { return }
        }
    }

    /// The frame and a count of every scan, walking the whole file: entropy-coded data is
    /// skipped byte by byte to the next real marker.
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JPEGStructure {
        let count = bytes.count
        var structure = try frame(size: UInt64(count)) { offset, length in
            let start = Int(min(UInt64(count), offset))
            return Array(bytes[start ..< min(count, start + length)])
        }
        var scans = 0
        var index = 2
        while index + 1 < count {
            guard bytes[index] == 0xFF else {
                throw ImageHeaderError("JPEG marker expected at byte \(index)")
            }
            let code = bytes[index + 1]
            if code == 0xFF { index += 1; continue }
            if code == 0xD9 { break }
            if code == 0x01 || (0xD0 ... 0xD7).contains(code) { index += 2; continue }
            guard index + 3 < count else { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2 else {
                throw ImageHeaderError("JPEG segment at byte \(index) has the invalid length \(length)")
            }
            index += 2 + length
            guard code == 0xDA else { continue }
            scans += 1
            // Entropy-coded data: 0xFF is always followed by 0x00 (stuffing) or a restart marker
            // inside it, so the first other 0xFF pair is the next segment.
            while index + 1 < count {
                guard let found = memchr(bytes.baseAddress! + index, 0xFF, count - 1 - index) else {
                    index = count
                    break
                }
                index = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
                let next = bytes[index + 1]
                if next != 0x00 && !(0xD0 ... 0xD7).contains(next) && next != 0xFF { break }
                index += 1
            }
        }
        structure.scans = scans
        return structure
    }

    private static func isFrame(_ code: UInt8) -> Bool {
        (0xC0 ... 0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    static func nextMarker(from offset: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> (UInt8, UInt64)? {
        var at = offset
        for _ in 0 ..< 65536 {
            let pair = try read(at, 2)
            guard pair.count == 2, pair[0] == 0xFF else { return nil }
            if pair[1] != 0xFF { return (pair[1], at) }
            at += 1  // fill byte
        }
        return nil
    }

    private static func parseFrame(code: UInt8, segment: [UInt8], at: UInt64) throws -> JPEGStructure {
        guard segment.count >= 6 else { throw ImageHeaderError("the JPEG frame header at byte \(at) is truncated") }
        let height = Int(segment[1]) << 8 | Int(segment[2])
        let width = Int(segment[3]) << 8 | Int(segment[4])
        let componentCount = Int(segment[5])
        guard width > 0, height > 0 else {
            throw ImageHeaderError("the JPEG frame declares \(width)×\(height) pixels")
        }
        guard (1 ... 4).contains(componentCount), segment.count >= 6 + 3 * componentCount else {
            throw ImageHeaderError("the JPEG frame at byte \(at) declares \(componentCount) components")
        }
        var components: [Component] = []
        for index in 0 ..< componentCount {
            let sampling = segment[6 + 3 * index + 1]
            let component = Component(horizontal: Int(sampling >> 4), vertical: Int(sampling & 0x0F))
            guard (1 ... 4).contains(component.horizontal), (1 ... 4).contains(component.vertical) else {
                throw ImageHeaderError("the JPEG frame at byte \(at) has an invalid sampling factor")
            }
            components.append(component)
        }
        // SOF2, SOF6, SOF10 and SOF14 are progressive.
        let progressive = code & 0x03 == 0x02
        return JPEGStructure(width: width, height: height, progressive: progressive, components: components)
    }

    /// An upper bound on what libjpeg allocates to decode at `scale` (numerator over
    /// denominator): whole-image coefficient buffers when the file has several scans, the
    /// sample rows of one MCU row otherwise, plus the output.
    package func decodeMemory(scaledWidth: Int, scaledHeight: Int, multiScan: Bool) -> Int {
        let hMax = components.map(\.horizontal).max() ?? 1
        let vMax = components.map(\.vertical).max() ?? 1
        let mcuWidth = 8 * hMax
        let mcuHeight = 8 * vMax
        let mcusAcross = (width + mcuWidth - 1) / mcuWidth
        let mcusDown = (height + mcuHeight - 1) / mcuHeight
        var bytes = 0
        for component in components {
            let blocksAcross = mcusAcross * component.horizontal
            if multiScan {
                let blocksDown = mcusDown * component.vertical
                bytes += blocksAcross * blocksDown * 128
            } else {
                bytes += blocksAcross * component.vertical * 128 * 2
            }
            // Sample rows of one MCU row, a few times over for upsampling and colour conversion.
            bytes += blocksAcross * 8 * component.vertical * 8 * 3
        }
        return bytes + scaledWidth * scaledHeight * 4 + (1 << 20)
    }
}
