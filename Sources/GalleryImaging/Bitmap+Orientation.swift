public import GalleryImageHeaders

extension Bitmap {
    /// The upright image: the stored pixels turned as `orientation` says.
    public func oriented(_ orientation: Orientation) -> Bitmap {
        guard orientation != .up else { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        let w = width, h = height
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0 ..< outHeight {
                    for x in 0 ..< outWidth {
                        // Where the upright pixel (x, y) is stored.
                        let (sx, sy): (Int, Int) = switch orientation {
                        case .up: (x, y)
                        case .upMirrored: (w - 1 - x, y)
                        case .down: (w - 1 - x, h - 1 - y)
                        case .downMirrored: (x, h - 1 - y)
                        case .leftMirrored: (y, x)
                        case .right: (y, h - 1 - x)
                        case .rightMirrored: (w - 1 - y, h - 1 - x)
                        case .left: (w - 1 - y, x)
                        }
                        let from = (sy * w + sx) * 4
                        let to = (y * outWidth + x) * 4
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                        target[to + 3] = source[from + 3]
                    }
                }
            }
        }
        return Bitmap(width: outWidth, height: outHeight, pixels: out)
    }
}
