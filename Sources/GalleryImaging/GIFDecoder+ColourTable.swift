internal import CGIF

extension GIFDecoder {
    /// A GIF frame's colours as one RGBA word per index, so that a row of indices becomes a row
    /// of pixels by one lookup each: transparent 0, as the empty screen is (the first frame can
    /// be written over it whole); an index past the file's table marks itself with alpha 1,
    /// which no colour has, so that damage is found where it is looked up.
    package struct ColourTable: Sendable {
        static let outside: UInt32 = 1 << 24
        let words: [UInt32]
        /// The colours the file's table holds.
        package let count: Int

        init(_ palette: UnsafeBufferPointer<GifColorType>, transparent: Int?) {
            var words = [UInt32](repeating: Self.outside, count: 256)
            for (index, colour) in palette.prefix(256).enumerated() {
                words[index] = UInt32(colour.Red) | UInt32(colour.Green) << 8 | UInt32(colour.Blue) << 16 | 255 << 24
            }
            // The transparent index need not be in the table: it is skipped, never looked up.
            if let transparent, (0 ..< 256).contains(transparent) { words[transparent] = 0 }
            self.words = words
            count = palette.count
        }

        /// Writes the colours of `indices` to `rgba` (four bytes each); returns the first index
        /// past the table, if any, the pixels from it on unwritten.
        package func expand(_ indices: UnsafeBufferPointer<UInt8>, into rgba: UnsafeMutableRawBufferPointer) -> Int? {
            precondition(rgba.count >= indices.count * 4)
            return words.withUnsafeBufferPointer { words -> Int? in
                for x in 0 ..< indices.count {
                    let value = words[Int(indices[x])]
                    guard value != Self.outside else { return Int(indices[x]) }
                    rgba.storeBytes(of: value.littleEndian, toByteOffset: x * 4, as: UInt32.self)
                }
                return nil
            }
        }

        /// The error of a frame that uses colour `index` of a table that has fewer.
        package func pastTheTable(_ index: Int) -> ImageDecodeError {
            ImageDecodeError(.corrupt, "the GIF's first image uses colour \(index) of a table of \(count)")
        }
    }
}
