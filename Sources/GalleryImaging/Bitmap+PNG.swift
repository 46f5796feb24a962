extension Bitmap {
    /// True when every pixel is fully opaque.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { pixels in
            var index = 3
            while index < pixels.count {
                if pixels[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }

    /// An 8-bit, non-interlaced PNG: RGB when opaque, RGBA otherwise; `sub`-filtered rows at
    /// zlib level 1, for photos both smaller and three times faster than unfiltered level 9.
    public func png(text: [(keyword: String, value: String)] = []) -> [UInt8] {
        if text.isEmpty, let madePNG { return madePNG }
        return encoded(text: text, filter: .sub, level: 1)
    }

    /// A writer of `png()` for an opaque bitmap of `width` × `height` whose rows come one at a
    /// time: what a thumbnailer writes while it filters (``madePNG``).
    static func opaquePNGWriter(width: Int, height: Int) -> PNGEncoder.RowWriter {
        PNGEncoder.RowWriter(width: width, height: height, layout: .rgb, sourceChannels: 4, text: [], filter: .sub, level: 1)
    }

    /// A PNG for a reader that decodes it at once and throws it away: the freedesktop
    /// thumbnailer's OUTPUT, which GNOME's factory, tumbler and KIO each load and then save in
    /// their own cache with their own compression. Its rows are stored, not deflated: for a
    /// 256 px thumbnail that takes 0.1 ms where level 1 takes 2, and the file is gone a moment
    /// later. A PNG that is kept is `png(text:)`.
    public func handOffPNG() -> [UInt8] {
        encoded(text: [], filter: .none, level: 0)
    }

    /// RGB when opaque (the alpha dropped as rows are written), RGBA otherwise.
    private func encoded(text: [(keyword: String, value: String)], filter: PNGEncoder.Filter, level: Int32) -> [UInt8] {
        PNGEncoder.encode(width: width, height: height, layout: isOpaque ? .rgb : .rgba, pixels: pixels, sourceChannels: 4,
                          text: text, filter: filter, level: level)
    }
}
