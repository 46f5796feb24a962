// The size an image declares, held to the size its coded image has (issue 28): an `ispe` of
// 65535 × 65535 over a 64 × 64 HEVC picture would otherwise go into the manifest, be laid out
// with that shape by the web gallery and the editor, and pass `validate --deep` as "past the
// pixel limit". Each codec's own header says what it codes, cheaply and without decoding:
//
// - HEVC: the sequence parameter set in `hvcC` (HEVCCodedSize), less its conformance window,
//   which is what the decoder outputs. A 4:2:0 (or 4:2:2) picture cannot crop to an odd size,
//   so an odd `ispe` one less than the cropped picture is the encoder's padding, and stands.
// - AV1: the sequence header (AV1CodedSize) in `av1C`'s configOBUs or the item's first OBUs.
//   The frame size is what the decoder outputs; the render size is not applied, so not read.
// - A grid: its `ispe` is the output size its data gives, and its tiles (each held to its own
//   coded size) cover that output.
// - `clap`, `irot` and `imir` are applied after decoding: they never change what `ispe` says.
//
// What contradicts is IG-BLB-019. Where a codec header cannot be found cheaply (an SPS sent in
// the item's data, an item's data built from other items), nothing is compared here, and
// `validate --deep` compares the decoded size.
extension BoxWalk {
    /// Refuses, with IG-BLB-019, a primary item (of item type `type`) whose declared size
    /// `declared` its coded image contradicts.
    mutating func checkCodedSize(of primary: UInt64, type: String, codec: ImageGeometry.HEIFCodec,
                                 declared: ImageGeometry, in meta: HEIFMeta, box: HEIFBox) throws {
        var (iloc, idat): (HEIFBox?, HEIFBox?) = (nil, nil)
        for child in try children(from: box.payload + 4, to: box.end) {
            if child.type == "iloc" { iloc = iloc ?? child }
            if child.type == "idat" { idat = idat ?? child }
        }
        // Where the items' data is (ImageGeometry+HEIFGrid.swift). Data that cannot be read is
        // not compared here: items whose data lies past the file are IG-BLB-017's.
        var locations: [UInt64: GridItemLocation] = [:]
        if let iloc, let found = try? gridItemLocations(iloc) { locations = found }
        let fileSize = source.size
        func data(_ item: UInt64, _ count: Int) -> [UInt8] {
            (try? gridItemBytes(locations[item], idat: idat, fileSize: fileSize, max: count)) ?? []
        }

        guard type == "grid" else {
            try checkCodedItem(primary, codec: codec, declared: (declared.width, declared.height), name: "the primary item",
                               in: meta, data: codec == .av1 ? data(primary, 4_096) : [])
            return
        }
        // A grid: its ispe is its output size, and its tiles cover it.
        let descriptor = data(primary, 12)
        guard descriptor.count >= 8, descriptor[0] == 0, descriptor.count >= (descriptor[1] & 1 == 1 ? 12 : 8) else {
            return  // a malformed description is IG-BLB-017's
        }
        let wide = descriptor[1] & 1 == 1
        let (rows, columns) = (Int(descriptor[2]) + 1, Int(descriptor[3]) + 1)
        let output = wide ? (Int(descriptor.be32(4)), Int(descriptor.be32(8))) : (descriptor.be16(4), descriptor.be16(6))
        guard output == (declared.width, declared.height) else {
            throw Self.contradicted("the grid's ispe says \(declared.width) × \(declared.height), but its grid description "
                                    + "gives an output of \(output.0) × \(output.1)", at: box.start)
        }
        var tileSize: (width: Int, height: Int)?
        var checked = Set<[Int]>()
        for tile in meta.derived[primary] ?? [] {
            let properties = meta.properties(of: tile)
            guard let ispe = properties.first(where: { $0.type == "ispe" }) else {
                throw ImageHeaderError("tile \(tile) of the grid has no ispe property: its size is not declared", offset: box.start)
            }
            let body = try source.bytes(at: ispe.payload, count: 12, "a tile's ispe property")
            let size = (Int(body.be32(4)), Int(body.be32(8)))
            // Tiles that share their properties (and, for HEVC, so their SPS) are checked once.
            let key = properties.map { Int($0.start) } + (codec == .av1 ? [Int(tile)] : [])
            if checked.insert(key).inserted {
                try checkCodedItem(tile, codec: codec, declared: size, name: "tile \(tile)", in: meta,
                                   data: codec == .av1 ? data(tile, 4_096) : [])
            }
            tileSize = tileSize.map { (min($0.width, size.0), min($0.height, size.1)) } ?? size
        }
        if let tileSize, columns * tileSize.width < output.0 || rows * tileSize.height < output.1 {
            throw Self.contradicted("the grid's \(rows) × \(columns) tiles of \(tileSize.width) × \(tileSize.height) do not cover "
                                    + "its output of \(output.0) × \(output.1)", at: box.start)
        }
    }

    /// One coded item (`av01` or `hvc1`): its declared size against its codec's header.
    private mutating func checkCodedItem(_ item: UInt64, codec: ImageGeometry.HEIFCodec, declared: (Int, Int), name: String,
                                         in meta: HEIFMeta, data: [UInt8]) throws {
        let configurationType = codec == .hevc ? "hvcC" : "av1C"
        guard let configuration = meta.properties(of: item).first(where: { $0.type == configurationType }) else { return }
        let length = Int(min(configuration.end - configuration.payload, 64 << 10))
        let bytes = try source.bytes(at: configuration.payload, count: length, "the \(configurationType) property")
        do {
            switch codec {
            case .hevc:
                guard let coded = try HEVCCodedSize.fromConfiguration(bytes) else { return }
                // An odd size that a subsampled picture cannot crop to is padded by one.
                func fits(_ stated: Int, _ output: Int, _ sub: Int) -> Bool {
                    stated == output || (sub == 2 && stated % 2 == 1 && stated + 1 == output)
                }
                guard fits(declared.0, coded.width, coded.subWidth), fits(declared.1, coded.height, coded.subHeight) else {
                    let window = (coded.width, coded.height) == (coded.codedWidth, coded.codedHeight) ? ""
                        : " (\(coded.codedWidth) × \(coded.codedHeight) less its conformance window)"
                    throw Self.contradicted("\(name)'s ispe says \(declared.0) × \(declared.1), but its HEVC sequence parameter "
                                            + "set (hvcC) codes \(coded.width) × \(coded.height) pixels\(window)",
                                            at: configuration.start)
                }
            case .av1:
                guard bytes.count >= 4,
                      let coded = try AV1CodedSize.from(configuration: Array(bytes.dropFirst(4)), data: data) else {
                    return
                }
                let matches = coded.exact ? declared == (coded.maxWidth, coded.maxHeight)
                    : declared.0 <= coded.maxWidth && declared.1 <= coded.maxHeight
                guard matches else {
                    throw Self.contradicted("\(name)'s ispe says \(declared.0) × \(declared.1), but its AV1 sequence header codes "
                                            + (coded.exact ? "frames of \(coded.maxWidth) × \(coded.maxHeight) pixels"
                                                : "frames of at most \(coded.maxWidth) × \(coded.maxHeight) pixels"),
                                            at: configuration.start)
                }
            }
        } catch var error as ImageHeaderError where error.problem == nil {
            // A codec header that does not read: the file's boxes are unsound (IG-BLB-012).
            error.message = "\(name)'s \(configurationType == "hvcC" ? "HEVC" : "AV1") header: \(error.message)"
            error.offset = error.offset ?? configuration.start
            throw error
        }
    }

    /// An IG-BLB-019 refusal.
    static func contradicted(_ message: String, at offset: UInt64) -> ImageHeaderError {
        ImageHeaderError(message, offset: offset, problem: .declaredSizeContradicted)
    }
}

// WebP: a still's VP8 or VP8L frame is its VP8X canvas (ImageGeometry+WebP.swift), and each
// animation frame's bitstream is the size its ANMF chunk gives it (libwebp's demuxer refuses
// any other, so the file would pass the header and fail `--deep`).
extension ImageGeometry {
    /// The VP8 or VP8L chunk among an ANMF chunk's frame data (`start` to `end`), after any
    /// ALPH or unknown chunk, against the frame's size.
    static func checkFrameBitstream(_ frame: Int, width: Int, height: Int, from start: UInt64, to end: UInt64,
                                    _ source: inout HeaderSource) throws {
        var offset = start
        for _ in 0 ..< 16 where offset + 8 <= end {
            let header = try source.bytes(at: offset, count: 8, "a chunk of an ANMF frame")
            let (type, length) = (header.fourCC(0), header.le32(4))
            guard offset.addingSaturating(8).addingSaturating(length) <= end else { return }  // judged by the decoder
            if type == "VP8 " || type == "VP8L" {
                let coded = try frameSize(type, at: offset + 8, length: length, &source)
                guard (coded.width, coded.height) == (width, height) else {
                    throw ImageHeaderError("frame \(frame)'s ANMF chunk says \(width) × \(height), but its "
                                           + "\(type == "VP8L" ? "VP8L" : "VP8") bitstream codes \(coded.width) × \(coded.height)",
                                           offset: offset, problem: .declaredSizeContradicted)
                }
                return
            }
            offset = (offset + 8).addingSaturating(length).addingSaturating(length & 1)
        }
    }
}
