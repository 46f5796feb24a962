import GallerySystem

extension Resampler {
    /// The stack of the thread that filters a part, as for a row pipeline's.
    static let partStackBytes = 256 << 10
    /// Below this many source pixels a second thread costs more than it saves: a thumbnail
    /// of a small picture filters in well under a millisecond.
    static let pixelsWorthParts = 1 << 18

    /// Resizes a whole bitmap, converted to sRGB by `colour` after filtering. A large one is
    /// filtered in two parts of its output rows, on two threads: a photo decoded at a DCT
    /// scale is held whole before it is filtered, and filtering it on one thread was a sixth
    /// of a 1,024 px thumbnail's time. Each output row is made as a whole resize makes it, from
    /// the same source rows, weights and order of sums, so the bytes are the same however the
    /// work is split.
    package static func resize(_ bitmap: Bitmap, width: Int, height: Int, colour: ColourTransform?,
                               partsAllowed: Bool = true) -> Bitmap {
        resize(bitmap, width: width, height: height, colour: colour,
               inParts: partsAllowed && bitmap.width * bitmap.height >= pixelsWorthParts && height >= 2)
    }

    /// The same, split in parts only when `inParts`; the tests compare both ways.
    package static func resize(_ bitmap: Bitmap, width: Int, height: Int, colour: ColourTransform?, inParts: Bool) -> Bitmap {
        guard inParts else {
            let resampler = Resampler(sourceWidth: bitmap.width, sourceHeight: bitmap.height, width: width, height: height)
            resampler.colour = colour
            resampler.push(rowsOf: bitmap)
            return resampler.finish()
        }
        let horizontal = contributions(from: bitmap.width, to: width)
        let vertical = contributions(from: bitmap.height, to: height)
        let count = width * height * 4
        var pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialised in
            let parts = [0 ..< height / 2, height / 2 ..< height].map { rows in
                Part(Resampler(sourceWidth: bitmap.width, sourceHeight: bitmap.height, width: width, height: height,
                               horizontal: horizontal, vertical: vertical, rows: rows, destination: buffer.baseAddress!))
            }
            // When no thread can be started, both parts are filtered here, one after the other.
            let helper = SystemThread.start(stackBytes: partStackBytes) { [part = parts[1]] in part.resampler.push(rowsOf: bitmap) }
            parts[0].resampler.push(rowsOf: bitmap)
            if let helper { helper.join() } else { parts[1].resampler.push(rowsOf: bitmap) }
            precondition(parts.allSatisfy(\.resampler.isComplete), "a part of the resize is incomplete")
            initialised = count
        }
        // Little CMS's transforms keep a one-pixel cache and are not shared between threads;
        // a pixel converts to the same bytes whether a row or the whole output is converted.
        colour?.apply(to: &pixels)
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The rows of `bitmap` this resampler takes, in order.
    private func push(rowsOf bitmap: Bitmap) {
        precondition(bitmap.width == sourceWidth && bitmap.height == sourceHeight)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            let rowBytes = bitmap.width * 4
            for row in sourceRows {
                push(UnsafeBufferPointer(rebasing: pixels[row * rowBytes ..< (row + 1) * rowBytes]))
            }
        }
    }

    /// A part's resampler, handed to the thread that runs it: each part writes only its own
    /// rows of the shared output, and the owner reads it only after joining that thread.
    private struct Part: @unchecked Sendable {
        let resampler: Resampler
        init(_ resampler: Resampler) { self.resampler = resampler }
    }
}
