/// The size an HEVC image is coded at, from the sequence parameter set (SPS) an `hvcC`
/// property carries (ISO/IEC 14496-15 8.3.3, H.265 7.3.2.2): `pic_width_in_luma_samples` and
/// `pic_height_in_luma_samples`, less the conformance window, which is what a decoder outputs
/// (libde265 under libheif crops to it). Read before any library sees the bytes, bounded: a
/// few hundred bytes of one NAL unit.
struct HEVCCodedSize: Equatable {
    /// The luma samples the picture is coded with, a multiple of the minimum coding block.
    var codedWidth: Int
    var codedHeight: Int
    /// What the decoder outputs: the coded picture less its conformance window.
    var width: Int
    var height: Int
    /// The units the conformance window counts in (`SubWidthC`, `SubHeightC`): 2 for a
    /// subsampled chroma direction, whose odd sizes a 4:2:0 picture cannot crop to.
    var subWidth: Int
    var subHeight: Int

    /// The SPS of an `hvcC` payload (the property's bytes after its box header): nil when the
    /// configuration holds no SPS (it may then be in the item's data, which this reader leaves
    /// to the decoder).
    static func fromConfiguration(_ hvcC: [UInt8]) throws -> HEVCCodedSize? {
        guard hvcC.count >= 23 else { throw ImageHeaderError("the hvcC property is \(hvcC.count) bytes, shorter than its 23-byte header") }
        var offset = 23
        for _ in 0 ..< Int(hvcC[22]) {
            guard offset + 3 <= hvcC.count else { throw ImageHeaderError("the hvcC property's NAL unit arrays run past its end") }
            let type = hvcC[offset] & 0x3F
            let count = hvcC.be16(offset + 1)
            offset += 3
            for _ in 0 ..< count {
                guard offset + 2 <= hvcC.count else { throw ImageHeaderError("the hvcC property's NAL units run past its end") }
                let length = hvcC.be16(offset)
                guard offset + 2 + length <= hvcC.count else {
                    throw ImageHeaderError("a NAL unit of \(length) bytes runs past the end of the hvcC property")
                }
                if type == 33 { return try fromSPS(hvcC[offset + 2 ..< offset + 2 + length]) }
                offset += 2 + length
            }
        }
        return nil
    }

    /// Parses an SPS NAL unit (its two-byte header first) as far as the conformance window.
    static func fromSPS(_ nal: ArraySlice<UInt8>) throws -> HEVCCodedSize {
        guard nal.count > 2, (nal[nal.startIndex] >> 1) & 0x3F == 33 else { throw ImageHeaderError("the hvcC's SPS is not an SPS NAL unit") }
        // The fields wanted lie in the first few dozen bytes; the rest is never looked at.
        var bits = ExpGolombReader(removingEmulationPrevention: nal.dropFirst(2).prefix(512))
        _ = try bits.read(4)  // sps_video_parameter_set_id
        let subLayers = try bits.read(3)  // sps_max_sub_layers_minus1
        _ = try bits.read(1)  // sps_temporal_id_nesting_flag
        // profile_tier_level(1, subLayers): the general profile (88 bits) and level (8).
        try bits.skip(96)
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0 ..< subLayers { present.append((try bits.read(1) == 1, try bits.read(1) == 1)) }
        if subLayers > 0 { try bits.skip(2 * (8 - subLayers)) }
        for layer in present {
            if layer.profile { try bits.skip(88) }
            if layer.level { try bits.skip(8) }
        }
        _ = try bits.unsignedExpGolomb()  // sps_seq_parameter_set_id
        let chroma = try bits.unsignedExpGolomb()
        guard chroma <= 3 else { throw ImageHeaderError("the SPS's chroma_format_idc is \(chroma), not 0 to 3") }
        let separatePlanes = chroma == 3 ? try bits.read(1) == 1 : false
        let width = try bits.unsignedExpGolomb()
        let height = try bits.unsignedExpGolomb()
        var window = (left: 0, right: 0, top: 0, bottom: 0)
        if try bits.read(1) == 1 {
            window = (try bits.unsignedExpGolomb(), try bits.unsignedExpGolomb(), try bits.unsignedExpGolomb(),
                      try bits.unsignedExpGolomb())
        }
        // H.265 table 6-1: 4:2:0 halves both directions, 4:2:2 the horizontal one.
        let (subWidth, subHeight) = separatePlanes ? (1, 1) : [(1, 1), (2, 2), (2, 1), (1, 1)][chroma]
        let cropped = (width - subWidth * (window.left + window.right), height - subHeight * (window.top + window.bottom))
        guard width > 0, height > 0, cropped.0 > 0, cropped.1 > 0 else {
            throw ImageHeaderError("the SPS codes \(width) × \(height) luma samples with a conformance window of "
                                   + "\(window.left), \(window.right), \(window.top), \(window.bottom): no picture is left")
        }
        return HEVCCodedSize(codedWidth: width, codedHeight: height, width: cropped.0, height: cropped.1,
                             subWidth: subWidth, subHeight: subHeight)
    }
}

/// Reads bits most significant first, as H.265 and AV1 write them, out of a bounded buffer;
/// for H.265 with its emulation prevention bytes (0x000003 → 0x0000) taken out first.
struct ExpGolombReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    init(removingEmulationPrevention raw: some Sequence<UInt8>) {
        var bytes: [UInt8] = []
        var zeros = 0
        for byte in raw {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            bytes.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        self.bytes = bytes
    }

    /// Bits read so far.
    var bitsRead: Int { position }

    /// `count` bits (at most 32) as an unsigned number.
    mutating func read(_ count: Int) throws -> Int {
        precondition((0 ... 32).contains(count))
        guard position + count <= bytes.count * 8 else { throw ImageHeaderError("the coded image's header ends early") }
        var value = 0
        for _ in 0 ..< count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, position + count <= bytes.count * 8 else { throw ImageHeaderError("the coded image's header ends early") }
        position += count
    }

    /// H.265's ue(v): at most 31 leading zeros (a value up to 2^32 - 2).
    mutating func unsignedExpGolomb() throws -> Int {
        var zeros = 0
        while try read(1) == 0 {
            zeros += 1
            guard zeros <= 31 else { throw ImageHeaderError("an Exp-Golomb code in the SPS has more than 31 leading zeros") }
        }
        return (1 << zeros) - 1 + (try read(zeros))
    }
}
