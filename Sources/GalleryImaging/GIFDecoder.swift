internal import CGIF
import GalleryFormat
import GalleryImageHeaders

/// GIF through giflib 5.2.1 record by record, never `DGifSlurp`, which would decode every
/// frame of a file that claims thousands: our own block reader first (`ImageGeometry.gif`,
/// which counts the frames and bounds the screen), then the first frame alone, its LZW decoded
/// by our own (`GIFDecoder.LZW`) a row at a time, composed on the logical screen with its
/// transparency.
package enum GIFDecoder {
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws -> DecodedFrame {
        let geometry = try ImageHeaderError.asDecodeError { try ImageGeometry.gif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)) }
        let (width, height) = (geometry.width, geometry.height)
        try limits.admit(work(geometry, held: height, byteCount: bytes.count))
        try FormatTwoLibrary.require(.gif)
        let bitmap = try bytes.withUnsafeBytes { raw in
            try firstFrame(raw, width: width, height: height, streaming: nil, holdingScreen: {}).screen!
        }
        return DecodedFrame(bitmap: bitmap, geometry: geometry)
    }

    /// The first frame's rows, top to bottom, handed to `rows`: straight from giflib when the
    /// frame covers the screen and is not interlaced (a thumbnail then filters them down without
    /// the screen ever being held), else from the composed screen.
    package static func decodeRows(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits(),
                                   rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws -> ImageGeometry {
        let geometry = try ImageHeaderError.asDecodeError { try ImageGeometry.gif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)) }
        let (width, height) = (geometry.width, geometry.height)
        // The whole first frame's LZW is admitted here, though only a row of the screen may be held.
        try limits.admit(work(geometry, held: 1, byteCount: bytes.count))
        try FormatTwoLibrary.require(.gif)
        try withoutActuallyEscaping(rows) { rows in
            let screen = try bytes.withUnsafeBytes { raw in
                try firstFrame(raw, width: width, height: height, streaming: rows) {
                    try limits.admit(work(geometry, held: height, byteCount: bytes.count))
                }.screen
            }
            if let screen {
                screen.pixels.withUnsafeBufferPointer { pixels in
                    for row in 0 ..< height { rows(UnsafeBufferPointer(rebasing: pixels[row * width * 4 ..< (row + 1) * width * 4])) }
                }
            }
        }
        return geometry
    }

    /// The first frame's colour indices, a row of the screen at a time, when the frame covers
    /// the screen: `palette` first (each index's RGBA word, as ``colourTable`` has it), then
    /// every row to `rows`, so that a thumbnail can look the colours up beside the filter, on
    /// its thread, while this one runs the LZW. An interlaced frame's indices are held, a byte
    /// a pixel (a quarter of the RGBA screen it was composed on), and each row is handed on once
    /// it and every row above it are in: during the last pass, every other row. Nil, with
    /// nothing handed over and no line decoded, for any other frame (``decodeRows`` composes it).
    package static func decodeIndexedRows(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits(),
                                          palette: (_ table: ColourTable) -> Void,
                                          rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws -> ImageGeometry? {
        let geometry = try ImageHeaderError.asDecodeError { try ImageGeometry.gif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)) }
        try limits.admit(work(geometry, held: 1, byteCount: bytes.count))
        try FormatTwoLibrary.require(.gif)
        let streamed = try withoutActuallyEscaping(rows) { rows in
            try withoutActuallyEscaping(palette) { palette in
                try bytes.withUnsafeBytes { raw in
                    try firstFrame(raw, width: geometry.width, height: geometry.height, streaming: rows, indexed: palette) {
                        // An interlaced frame's indices, a byte a pixel.
                        try limits.admit(work(geometry, held: (geometry.height + 3) / 4, byteCount: bytes.count))
                    }.streamed
                }
            }
        }
        return streamed ? geometry : nil
    }

    /// A decode of the first frame holding `held` rows of the screen: the work is the screen or
    /// the first frame, whichever is larger, for LZW decodes every pixel of the frame.
    private static func work(_ geometry: ImageGeometry, held rows: Int, byteCount: Int) -> DecodeWork {
        DecodeWork(.gif, "GIF image", declared: (geometry.width, geometry.height), codedBytes: byteCount, worked: geometry.workPixels,
                   held: geometry.width * rows, bytes: memory(width: geometry.width, height: rows, byteCount: byteCount))
    }

    /// What a decode holds at most: the screen, one row of colour indices, giflib's LZW tables.
    static func memory(width: Int, height: Int, byteCount: Int) -> Int { byteCount + width * height * 4 + width + (64 << 10) }

    /// What giflib reads from: the bytes and how far it has come.
    private final class Input {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    /// The first frame: streamed to `streaming` when it can be (as RGBA, or as indices after
    /// `indexed` has the table), else composed on the screen, after `holdingScreen` has accepted
    /// the cost of holding it (with `indexed`, of holding an interlaced frame's indices); with
    /// `indexed`, a frame that does not cover the screen is left undecoded.
    private static func firstFrame(_ raw: UnsafeRawBufferPointer, width: Int, height: Int,
                                   streaming: ((UnsafeBufferPointer<UInt8>) -> Void)?,
                                   indexed: ((ColourTable) -> Void)? = nil,
                                   holdingScreen: () throws -> Void) throws -> (screen: Bitmap?, streamed: Bool) {
        let input = Input(raw)
        var status: Int32 = 0
        let opened = withExtendedLifetime(input) {
            DGifOpen(Unmanaged.passUnretained(input).toOpaque(), { gif, buffer, count in
                guard let gif, let buffer, count > 0 else { return 0 }
                let input = Unmanaged<Input>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
                let taken = min(Int(count), input.bytes.count - input.offset)
                guard taken > 0 else { return 0 }
                UnsafeMutableRawPointer(buffer).copyMemory(from: input.bytes.baseAddress! + input.offset, byteCount: taken)
                input.offset += taken
                return Int32(taken)
            }, &status)
        }
        guard let gif = opened else { throw failure(status) }
        defer { DGifCloseFile(gif, &status) }
        return try withExtendedLifetime(input) {
            var transparent: Int?
            while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(gif, &record) == GIF_OK else { throw failure(gif.pointee.Error) }
                switch record {
                case EXTENSION_RECORD_TYPE:
                    transparent = try readExtension(gif) ?? transparent
                case IMAGE_DESC_RECORD_TYPE:
                    guard DGifGetImageDesc(gif) == GIF_OK else { throw failure(gif.pointee.Error) }
                    // giflib has read up to the frame's LZW code size, the byte before its data
                    // (its reads come through `input` a record at a time, never ahead).
                    guard input.offset > 0 else { throw ImageDecodeError(.corrupt, "the GIF's first image has no data") }
                    let lzw = try LZW(raw, from: input.offset, rootBits: Int(raw[input.offset - 1]))
                    return try compose(gif, lzw, width: width, height: height, transparent: transparent, streaming: streaming,
                                       indexed: indexed, holdingScreen: holdingScreen)
                case TERMINATE_RECORD_TYPE:
                    throw ImageDecodeError(.corrupt, "the GIF ends before its first image")
                default:
                    throw ImageDecodeError(.corrupt, "the GIF has a record of unknown type")
                }
            }
        }
    }

    /// Reads one extension; returns the transparent colour index a graphic control extension sets.
    private static func readExtension(_ gif: UnsafeMutablePointer<GifFileType>) throws -> Int?? {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failure(gif.pointee.Error) }
        var transparent: Int??
        if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
            // block[0] is the length; then packed fields, delay (2 bytes), transparent index.
            transparent = .some(block[1] & 1 == 1 ? Int(block[4]) : nil)
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure(gif.pointee.Error) }
        }
        return transparent
    }

    /// The frame on the screen: where it does not reach, or where it is transparent, the screen
    /// stays transparent, as browsers show it.
    private static func compose(_ gif: UnsafeMutablePointer<GifFileType>, _ lzw: LZW, width: Int, height: Int, transparent: Int?,
                                streaming: ((UnsafeBufferPointer<UInt8>) -> Void)?, indexed: ((ColourTable) -> Void)?,
                                holdingScreen: () throws -> Void) throws -> (screen: Bitmap?, streamed: Bool) {
        let frame = gif.pointee.Image
        let (left, top, frameWidth, frameHeight) = (Int(frame.Left), Int(frame.Top), Int(frame.Width), Int(frame.Height))
        guard frameWidth > 0, frameHeight > 0 else { throw ImageDecodeError(.corrupt, "the GIF's first image is empty") }
        guard let colours = frame.ColorMap ?? gif.pointee.SColorMap else {
            throw ImageDecodeError(.corrupt, "the GIF's first image has no colour table, local or global")
        }
        let palette = UnsafeBufferPointer(start: colours.pointee.Colors, count: Int(colours.pointee.ColorCount))
        let colourTable = ColourTable(palette, transparent: transparent)
        let covers = left == 0 && top == 0 && frameWidth == width && frameHeight == height
        let streams = streaming != nil && covers && !frame.Interlace
        if let indexed {
            guard covers, let streaming else { return (nil, false) }
            indexed(colourTable)
            if frame.Interlace {
                try holdingScreen()
                try indicesInterlaced(lzw, width: width, height: height, streaming: streaming)
            } else {
                var line = [GifPixelType](repeating: 0, count: width)
                for _ in 0 ..< height {
                    try line.withUnsafeMutableBufferPointer { line in
                        try lzw.fill(line)
                        streaming(UnsafeBufferPointer(line))
                    }
                }
            }
            try lzw.finish()
            return (nil, true)
        }
        if !streams { try holdingScreen() }
        // Streamed, one row of the screen, every pixel written anew for each row; else the whole screen.
        var pixels = [UInt8](repeating: 0, count: streams ? width * 4 : width * height * 4)
        var line = [GifPixelType](repeating: 0, count: frameWidth)
        let shown = min(frameWidth, max(0, width - left))
        for row in rowOrder(height: frameHeight, interlaced: frame.Interlace) {
            try line.withUnsafeMutableBufferPointer { try lzw.fill($0) }
            let y = top + row
            guard y < height else { continue }
            let past = pixels.withUnsafeMutableBytes { pixels -> Int? in
                line.withUnsafeBufferPointer { line -> Int? in
                    let start = ((streams ? 0 : y * width) + left) * 4
                    return colourTable.expand(UnsafeBufferPointer(rebasing: line[0 ..< shown]),
                                              into: UnsafeMutableRawBufferPointer(rebasing: pixels[start ..< start + shown * 4]))
                }
            }
            if let past { throw colourTable.pastTheTable(past) }
            if streams, let streaming { pixels.withUnsafeBufferPointer { streaming($0) } }
        }
        try lzw.finish()
        return (streams ? nil : Bitmap(width: width, height: height, pixels: pixels), streams)
    }

    /// An interlaced frame's indices, held whole, each row handed to `streaming` once it and
    /// every row above it are in.
    private static func indicesInterlaced(_ lzw: LZW, width: Int, height: Int,
                                          streaming: (UnsafeBufferPointer<UInt8>) -> Void) throws {
        var indices = [UInt8](repeating: 0, count: width * height)
        var done = [Bool](repeating: false, count: height)
        var ready = 0
        try indices.withUnsafeMutableBufferPointer { indices in
            for row in rowOrder(height: height, interlaced: true) {
                try lzw.fill(UnsafeMutableBufferPointer(rebasing: indices[row * width ..< (row + 1) * width]))
                done[row] = true
                while ready < height, done[ready] {
                    streaming(UnsafeBufferPointer(rebasing: indices[ready * width ..< (ready + 1) * width]))
                    ready += 1
                }
            }
        }
    }

    /// The rows in the order the data holds them: an interlaced image sends every 8th row from
    /// 0, every 8th from 4, every 4th from 2, then every 2nd from 1.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0 ..< height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    private static func failure(_ code: Int32) -> ImageDecodeError {
        let reason = GifErrorString(code).map(libraryMessage) ?? "error \(code)"
        if code == D_GIF_ERR_NOT_ENOUGH_MEM { return ImageDecodeError(.pastLimit, "giflib: \(reason)") }
        return ImageDecodeError(.corrupt, "giflib: \(reason.prefix(1).lowercased() + reason.dropFirst())")
    }
}
