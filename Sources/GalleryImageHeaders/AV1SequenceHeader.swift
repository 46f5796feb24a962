/// The size an AV1 image is coded at, from its sequence header OBU (AV1 5.5): the largest
/// frame the sequence holds (`max_frame_width_minus_1`, `max_frame_height_minus_1`), and,
/// when the first frame's header says it keeps that size (`frame_size_override_flag` 0, as in
/// every still that avifenc, libaom, rav1e and SVT-AV1 write), the frame's size exactly. The
/// frame size is what a decoder outputs (after superres, the upscaled width); the render size
/// (`render_and_frame_size_different`) is a hint a decoder does not apply, so it is not read.
/// Bounded: the OBUs are walked within the bytes given (an `av1C`'s configOBUs, the first
/// kilobytes of the item's data).
struct AV1CodedSize: Equatable {
    var maxWidth: Int
    var maxHeight: Int
    /// True when the first frame is known to be `maxWidth` × `maxHeight`; false when its size
    /// is only bounded by them (a frame header that overrides the size, or none found).
    var exact: Bool

    /// What the sequence header says for a frame header's sake.
    private struct Sequence {
        var reducedStillPictureHeader: Bool
        var decoderModelInfo: Bool
        var equalPictureInterval: Bool
        var frameIDBits: Int?
        var screenContentTools: Int  // 0, 1, or 2 for "per frame"
        var integerMV: Int
        var size: (width: Int, height: Int)
    }

    /// From OBUs: the sequence header in `configuration` (an `av1C`'s configOBUs) or else in
    /// `data`, and the first frame header in `data`. Nil when no sequence header is found.
    static func from(configuration: [UInt8], data: [UInt8]) throws -> AV1CodedSize? {
        var sequence: Sequence?
        for obu in try obus(configuration) where obu.type == 1 {
            sequence = try parseSequenceHeader(obu.payload)
            break
        }
        for obu in try obus(data) {
            switch obu.type {
            case 1 where sequence == nil:
                sequence = try parseSequenceHeader(obu.payload)
            case 3, 6:  // OBU_FRAME_HEADER, OBU_FRAME
                guard let known = sequence else { return nil }
                let keeps = try keepsSequenceSize(obu.payload, known)
                return AV1CodedSize(maxWidth: known.size.width, maxHeight: known.size.height, exact: keeps)
            default:
                continue
            }
        }
        return sequence.map { AV1CodedSize(maxWidth: $0.size.width, maxHeight: $0.size.height, exact: $0.reducedStillPictureHeader) }
    }

    /// The OBUs of `bytes` (type and payload), to the end or to the first that runs past it.
    private static func obus(_ bytes: [UInt8]) throws -> [(type: Int, payload: ArraySlice<UInt8>)] {
        var result: [(type: Int, payload: ArraySlice<UInt8>)] = []
        var offset = 0
        while offset < bytes.count, result.count < 64 {
            let header = bytes[offset]
            guard header & 0x80 == 0 else { throw ImageHeaderError("an AV1 OBU header has its forbidden bit set") }
            let type = Int(header >> 3 & 0x0F)
            var at = offset + 1 + (header & 0x04 != 0 ? 1 : 0)
            var size = bytes.count - at
            if header & 0x02 != 0 {
                // leb128, at most 8 bytes.
                size = 0
                for index in 0 ..< 8 {
                    guard at < bytes.count else { return result }
                    let byte = bytes[at]
                    at += 1
                    size |= Int(byte & 0x7F) << (7 * index)
                    if byte & 0x80 == 0 { break }
                }
            }
            guard at <= bytes.count, size >= 0 else { return result }
            // The last OBU may be cut where the bytes given end: what it starts with still reads.
            let end = min(bytes.count, at.addingReportingOverflow(size).overflow ? bytes.count : at + size)
            result.append((type, bytes[at ..< end]))
            offset = end
        }
        return result
    }

    private static func parseSequenceHeader(_ payload: ArraySlice<UInt8>) throws -> Sequence {
        var bits = ExpGolombReader(payload.prefix(256))
        _ = try bits.read(3)  // seq_profile
        _ = try bits.read(1)  // still_picture
        let reduced = try bits.read(1) == 1
        var decoderModelInfo = false
        var equalPictureInterval = false
        if reduced {
            _ = try bits.read(5)  // seq_level_idx[0]
        } else {
            if try bits.read(1) == 1 {  // timing_info_present_flag
                try bits.skip(64)  // num_units_in_display_tick, time_scale
                equalPictureInterval = try bits.read(1) == 1
                if equalPictureInterval { _ = try uvlc(&bits) }
                decoderModelInfo = try bits.read(1) == 1
            }
            var bufferDelayLength = 0
            if decoderModelInfo {
                bufferDelayLength = try bits.read(5) + 1
                try bits.skip(32 + 5 + 5)
            }
            let initialDisplayDelay = try bits.read(1) == 1
            let operatingPoints = try bits.read(5) + 1
            for _ in 0 ..< operatingPoints {
                _ = try bits.read(12)  // operating_point_idc
                if try bits.read(5) > 7 { _ = try bits.read(1) }  // seq_level_idx, seq_tier
                if decoderModelInfo, try bits.read(1) == 1 { try bits.skip(2 * bufferDelayLength + 1) }
                if initialDisplayDelay, try bits.read(1) == 1 { try bits.skip(4) }
            }
        }
        let widthBits = try bits.read(4) + 1
        let heightBits = try bits.read(4) + 1
        let width = try bits.read(widthBits) + 1
        let height = try bits.read(heightBits) + 1
        var frameIDBits: Int?
        var screenContentTools = 2
        var integerMV = 2
        if !reduced {
            if try bits.read(1) == 1 {  // frame_id_numbers_present_flag
                let delta = try bits.read(4) + 2
                frameIDBits = try bits.read(3) + 1 + delta
            }
            try bits.skip(3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
            try bits.skip(4)  // enable_interintra_compound, _masked_compound, _warped_motion, _dual_filter
            let orderHint = try bits.read(1) == 1
            if orderHint { try bits.skip(2) }  // enable_jnt_comp, enable_ref_frame_mvs
            screenContentTools = try bits.read(1) == 1 ? 2 : try bits.read(1)
            if screenContentTools > 0 { integerMV = try bits.read(1) == 1 ? 2 : try bits.read(1) }
        }
        return Sequence(reducedStillPictureHeader: reduced, decoderModelInfo: decoderModelInfo,
                        equalPictureInterval: equalPictureInterval, frameIDBits: frameIDBits,
                        screenContentTools: screenContentTools, integerMV: integerMV, size: (width, height))
    }

    /// Whether the first frame header keeps the sequence's size (`frame_size_override_flag`
    /// 0): read as far as that flag (AV1 5.9.2).
    private static func keepsSequenceSize(_ payload: ArraySlice<UInt8>, _ sequence: Sequence) throws -> Bool {
        if sequence.reducedStillPictureHeader { return true }
        var bits = ExpGolombReader(payload.prefix(64))
        guard try bits.read(1) == 0 else { return false }  // show_existing_frame: no size of its own here
        let frameType = try bits.read(2)
        let showFrame = try bits.read(1) == 1
        if showFrame, sequence.decoderModelInfo, !sequence.equalPictureInterval {
            return false  // temporal_point_info's length is in the decoder model: not worth following
        }
        if !showFrame { _ = try bits.read(1) }  // showable_frame
        if frameType == 3 { return false }  // a switch frame always overrides
        if !(frameType == 0 && showFrame) { _ = try bits.read(1) }  // error_resilient_mode
        _ = try bits.read(1)  // disable_cdf_update
        let screenContent = sequence.screenContentTools == 2 ? try bits.read(1) : sequence.screenContentTools
        if screenContent > 0, sequence.integerMV == 2 { _ = try bits.read(1) }  // force_integer_mv
        if let idBits = sequence.frameIDBits { try bits.skip(idBits) }  // current_frame_id
        return try bits.read(1) == 0
    }

    /// AV1's uvlc(): at most 32 leading zeros.
    private static func uvlc(_ bits: inout ExpGolombReader) throws -> Int {
        var zeros = 0
        while try bits.read(1) == 0 {
            zeros += 1
            guard zeros < 32 else { throw ImageHeaderError("a uvlc code in the AV1 sequence header has 32 leading zeros") }
        }
        return (1 << zeros) - 1 + (try bits.read(zeros))
    }
}
