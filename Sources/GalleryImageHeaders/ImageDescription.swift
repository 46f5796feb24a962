/// The description an image carries of itself, the caption `create`, `add` and `convert` give
/// an image when none is given (`--no-captions` turns it off): EXIF `ImageDescription` or XMP
/// `dc:description` in a JPEG, a `Description` text chunk (`tEXt` or uncompressed `iTXt`) in a
/// PNG.
///
/// Read from the metadata before the image data (a JPEG's segments before its scan, a PNG's
/// chunks before `IDAT`), each field bounded, its encoding checked rather than trusted (UTF-8
/// when it is valid UTF-8, else Latin-1), control characters turned into spaces. The text that
/// cameras write when nobody wrote anything ("OLYMPUS DIGITAL CAMERA") is no description.
package enum ImageDescription {
    /// The longest description kept, in characters; a longer one is cut there.
    package static let maximumLength = 2_000

    /// The description, or nil when the image has none worth showing (or its metadata cannot be
    /// read: a caption is a courtesy, never a reason to refuse an image).
    package static func of(size: UInt64, read: @escaping (UInt64, Int) throws -> [UInt8]) -> String? {
        var source = HeaderSource(size: size, read: read)
        guard let head = try? source.bytes(at: 0, count: 8, "the signature") else { return nil }
        let found: [UInt8]?
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            found = try? jpeg(&source)
        } else if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            found = try? png(&source)
        } else {
            found = nil
        }
        return found.flatMap(cleaned)
    }

    /// Text as a caption: decoded, controls made spaces, runs of spaces made one, trimmed,
    /// bounded; nil when nothing (or only a camera's default) is left.
    package static func cleaned(_ bytes: [UInt8]) -> String? {
        let raw = String(validating: bytes, as: UTF8.self)
            ?? latin1(bytes)
        var text = ""
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .format || category == .lineSeparator
                || category == .paragraphSeparator || scalar.properties.isWhitespace {
                pendingSpace = !text.isEmpty
                continue
            }
            if pendingSpace { text.append(" ") }
            pendingSpace = false
            text.unicodeScalars.append(scalar)
            if text.count >= maximumLength { break }
        }
        guard !text.isEmpty, !cameraDefaults.contains(text.uppercased()) else { return nil }
        return text
    }

    /// Each byte as the code point of the same number.
    static func latin1(_ bytes: [UInt8]) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// What cameras and scanners write into `ImageDescription` on their own.
    static let cameraDefaults: Set<String> = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "DEFAULT", "SAMSUNG", "KODAK DIGITAL STILL CAMERA",
        "MINOLTA DIGITAL CAMERA", "CREATOR: GD-JPEG V1.0", "JPEG", "IMAGE", "PICTURE", "DESCRIPTION",
    ]

    // MARK: JPEG

    /// XMP's description first (it says which language, and is Unicode), then EXIF's.
    private static func jpeg(_ source: inout HeaderSource) throws -> [UInt8]? {
        var offset: UInt64 = 2
        var exif: [UInt8]?
        for _ in 0 ..< 256 {
            let marker = try source.bytes(at: offset, count: 4, "a JPEG segment")
            guard marker[0] == 0xFF, marker[1] != 0xDA, marker[1] != 0xD9 else { break }
            let length = marker.be16(2)
            guard length >= 2 else { break }
            if marker[1] == 0xE1 {
                let segment = try source.bytes(at: offset + 4, count: length - 2, "an APP1 segment")
                let xmpName = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
                if segment.starts(with: xmpName), let text = xmpDescription(Array(segment.dropFirst(xmpName.count))) {
                    return text
                }
                if segment.starts(with: Array("Exif\0\0".utf8)) { exif = exifDescription(Array(segment.dropFirst(6))) }
            }
            offset += 2 + UInt64(length)
        }
        return exif
    }

    /// Tag 0x010E of IFD0, an ASCII string, in either byte order.
    static func exifDescription(_ tiff: [UInt8]) -> [UInt8]? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff.starts(with: [0x49, 0x49, 0x2A, 0x00])
        guard little || tiff.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) else { return nil }
        func u16(_ at: Int) -> Int { little ? tiff.le16(at) : tiff.be16(at) }
        func u32(_ at: Int) -> Int { Int(little ? tiff.le32(at) : tiff.be32(at)) }
        let ifd = u32(4)
        guard ifd >= 8, ifd + 2 <= tiff.count else { return nil }
        let entries = u16(ifd)
        for index in 0 ..< min(entries, 512) {
            let entry = ifd + 2 + index * 12
            guard entry + 12 <= tiff.count else { return nil }
            guard u16(entry) == 0x010E, u16(entry + 2) == 2 else { continue }
            let count = u32(entry + 4)
            let start = count <= 4 ? entry + 8 : u32(entry + 8)
            guard count > 0, start >= 0, start + count <= tiff.count else { return nil }
            return Array(tiff[start ..< start + count].prefix { $0 != 0 })
        }
        return nil
    }

    /// The first `rdf:li` of `dc:description` (the default language's, when one is marked).
    static func xmpDescription(_ packet: [UInt8]) -> [UInt8]? {
        let text = String(decoding: packet.prefix(256 << 10), as: UTF8.self)
        guard let open = text.firstRange(of: "<dc:description"),
              let close = text[open.upperBound...].firstRange(of: "</dc:description>") else { return nil }
        let body = text[open.upperBound ..< close.lowerBound]
        var items: [(language: String?, text: Substring)] = []
        var rest = body[...]
        while let li = rest.firstRange(of: "<rdf:li"), let end = rest[li.upperBound...].firstRange(of: ">"),
              let stop = rest[end.upperBound...].firstRange(of: "</rdf:li>") {
            let attributes = rest[li.upperBound ..< end.lowerBound]
            let language = attributes.firstRange(of: "xml:lang=\"").map { found in
                String(attributes[found.upperBound...].prefix { $0 != "\"" })
            }
            items.append((language, rest[end.upperBound ..< stop.lowerBound]))
            rest = rest[stop.upperBound...]
        }
        guard let chosen = items.first(where: { $0.language == "x-default" }) ?? items.first else { return nil }
        return Array(unescapingXML(chosen.text).utf8)
    }

    /// XML's five entities and numeric character references; anything else stays as written.
    static func unescapingXML(_ text: Substring) -> String {
        var result = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let name = rest[rest.index(after: amp) ..< semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(name)]
            var scalar: Unicode.Scalar?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            }
            if let replacement = named ?? scalar.map(String.init) {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
            }
        }
        return result + rest
    }

    // MARK: PNG

    /// A `Description` in `tEXt` (Latin-1) or uncompressed `iTXt` (UTF-8), before `IDAT`.
    private static func png(_ source: inout HeaderSource) throws -> [UInt8]? {
        var offset: UInt64 = 8
        for _ in 0 ..< 1_024 {
            let header = try source.bytes(at: offset, count: 8, "a PNG chunk")
            let (length, type) = (header.be32(0), header.fourCC(4))
            if type == "IDAT" || type == "IEND" { return nil }
            if (type == "tEXt" || type == "iTXt"), length <= 64 << 10 {
                let data = try source.bytes(at: offset + 8, count: Int(length), "a text chunk")
                if let text = textChunk(type, data) { return text }
            }
            offset = offset.addingSaturating(12).addingSaturating(length)
        }
        return nil
    }

    static func textChunk(_ type: String, _ data: [UInt8]) -> [UInt8]? {
        guard let zero = data.firstIndex(of: 0), String(decoding: data[..<zero], as: UTF8.self) == "Description" else { return nil }
        let rest = Array(data[(zero + 1)...])
        if type == "tEXt" {
            // Latin-1 by definition: each byte is its own scalar, whatever UTF-8 it may look like.
            return Array(latin1(rest).utf8)
        }
        // iTXt: compression flag, method, language tag, translated keyword, then the text.
        guard rest.count >= 2, rest[0] == 0 else { return nil }  // compressed text is left alone
        var fields = rest.dropFirst(2).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        return Array(fields.removeLast())
    }
}
