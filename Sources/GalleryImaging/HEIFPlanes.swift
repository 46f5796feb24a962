internal import CHEIF

/// A decoded HEIC image as libheif 1.15 gives it when asked for no particular layout: planar
/// RGB (it converts the codec's YCbCr itself, with the image's nclx matrix and range) or
/// monochrome, 8 to 16 bits a sample, alpha apart. Three planes of bytes take less than one
/// of RGBA, and are turned into RGBA rows one at a time. Samples past 8 bits are cut to their
/// top 8, as libheif cuts them when asked for 8-bit output (what heif-convert and libvips show).
struct HEIFPlanes {
    private struct Plane {
        var base: UnsafePointer<UInt8>
        var stride: Int
        var bits: Int
    }

    private let width: Int
    private let height: Int
    /// Each plane and the RGBA bytes it fills: red, green, blue and alpha; grey fills three.
    private let targets: [(plane: Plane, channels: [Int])]

    /// Reads the planes of `image`, which must be `width` × `height` (the `ispe` size).
    init(_ image: OpaquePointer?, width: Int, height: Int) throws {
        self.width = width
        self.height = height
        let channels: [heif_channel] = switch heif_image_get_colorspace(image) {
        case heif_colorspace_RGB: [heif_channel_R, heif_channel_G, heif_channel_B]
        case heif_colorspace_monochrome: [heif_channel_Y]
        case let colorspace: throw ImageDecodeError(.corrupt, "libheif gave pixels in colorspace \(colorspace.rawValue), "
                                                    + "which this reader does not convert")
        }
        let (decodedWidth, decodedHeight) = (Int(heif_image_get_width(image, channels[0])), Int(heif_image_get_height(image, channels[0])))
        // A 4:2:0 picture cannot crop to an odd size: its encoder's one column or row of padding
        // is left out here (the header reader allows the same, ImageGeometry+CodedSize.swift).
        func fits(_ decoded: Int, _ stated: Int) -> Bool { decoded == stated || (stated % 2 == 1 && decoded == stated + 1) }
        guard fits(decodedWidth, width), fits(decodedHeight, height) else {
            throw ImageDecodeError(.corrupt, "the HEIC image decodes to \(decodedWidth)×\(decodedHeight), "
                                   + "not the \(width)×\(height) its ispe property states")
        }
        func plane(_ channel: heif_channel) throws -> Plane {
            var stride: Int32 = 0
            let bits = Int(heif_image_get_bits_per_pixel_range(image, channel))
            guard heif_image_has_channel(image, channel) != 0, (1 ... 16).contains(bits),
                  Int(heif_image_get_width(image, channel)) == decodedWidth, Int(heif_image_get_height(image, channel)) == decodedHeight,
                  let base = heif_image_get_plane_readonly(image, channel, &stride), Int(stride) >= width * (bits > 8 ? 2 : 1) else {
                throw ImageDecodeError(.corrupt, "libheif gave no usable plane \(channel.rawValue) of \(width)×\(height)")
            }
            return Plane(base: base, stride: Int(stride), bits: bits)
        }
        let colours = channels.count == 1 ? [(try plane(channels[0]), [0, 1, 2])]
            : try channels.enumerated().map { (try plane($0.element), [$0.offset]) }
        let alpha = heif_image_has_channel(image, heif_channel_Alpha) != 0 ? [(try plane(heif_channel_Alpha), [3])] : []
        targets = colours + alpha
    }

    /// Hands each row, top to bottom, to `rows` as RGBA; one row is held at a time.
    func convert(rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) {
        var output = [UInt8](repeating: 255, count: width * 4)
        for y in 0 ..< height {
            output.withUnsafeMutableBufferPointer { out in
                for (plane, channels) in targets {
                    for channel in channels { Self.read(plane, row: y, into: out, at: channel, width) }
                }
            }
            output.withUnsafeBufferPointer { rows($0) }
        }
    }

    /// The first `count` pixels of row `y` as RGBA into `out`: a grid's tile, cropped at the
    /// output's right edge, into its place in the output row (`HEIFDecoder+Grid`). The alpha
    /// bytes of an image without alpha are left as they are.
    func fill(row y: Int, into out: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        for (plane, channels) in targets {
            for channel in channels { Self.read(plane, row: y, into: out, at: channel, count) }
        }
    }

    /// One row of a plane into every fourth byte of `out` from `channel`: 8 bits as they are,
    /// more cut to their top 8 (libheif stores them 16 bits little-endian), fewer stretched to
    /// the full range.
    private static func read(_ plane: Plane, row: Int, into out: UnsafeMutableBufferPointer<UInt8>, at channel: Int, _ width: Int) {
        let start = plane.base + row * plane.stride
        switch plane.bits {
        case 8:
            for x in 0 ..< width { out[x * 4 + channel] = start[x] }
        case 9...:
            let shift = UInt16(plane.bits - 8)
            for x in 0 ..< width { out[x * 4 + channel] = UInt8(truncatingIfNeeded: (UInt16(start[2 * x]) | UInt16(start[2 * x + 1]) << 8) >> shift) }
        default:
            let maximum = (1 << plane.bits) - 1
            for x in 0 ..< width { out[x * 4 + channel] = UInt8((min(Int(start[x]), maximum) * 255 + maximum / 2) / maximum) }
        }
    }
}
