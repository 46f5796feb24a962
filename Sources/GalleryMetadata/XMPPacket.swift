// An XMP packet (RDF/XML) read as far as a strip needs: start tags, end tags, attributes,
// comments and processing instructions, with the namespace prefixes the packet declares. A
// property is an element or an attribute (RDF's short form); removing one removes the whole
// element, with whatever structure it holds (a LocationShown's city), or the attribute. Any
// other byte of the packet stays as it was.

/// An XMP packet's properties of interest, found by qualified name.
struct XMPPacket {
    struct Property {
        /// As reports name it: `XMP prefix:Name`, with the conventional prefix.
        var field: String
        var category: ImagePrivacy.Category?
        /// From the whitespace before it to its end.
        var range: Range<Int>
        /// An attribute's value, or an element's text when it has no markup inside.
        var value: String?
        var isCaptureTime: Bool
    }

    static let maximumBytes = 16 << 20

    let bytes: [UInt8]
    /// The properties of interest, outermost only (a city inside a removed LocationShown is not
    /// listed again), in the packet's order.
    private(set) var properties: [Property] = []

    init(_ bytes: [UInt8]) throws {
        guard bytes.count <= Self.maximumBytes else {
            throw MetadataError("the XMP packet is \(bytes.count) bytes, more than \(Self.maximumBytes)")
        }
        self.bytes = bytes
        var prefixes: [String: String] = [:]
        try scan { tag in
            for attribute in tag.attributes where attribute.name.hasPrefix("xmlns:") {
                prefixes[String(attribute.name.dropFirst(6))] = attribute.value
            }
            return nil
        }
        var found: [Property] = []
        try scan { tag in
            for attribute in tag.attributes {
                if let property = Self.property(attribute.name, prefixes: prefixes, range: attribute.range, value: attribute.value) {
                    found.append(property)
                }
            }
            guard var property = Self.property(tag.name, prefixes: prefixes, range: tag.range, value: nil) else { return nil }
            let element = try self.elementEnd(from: tag)
            property.range = tag.range.lowerBound ..< element.end
            property.value = element.text
            found.append(property)
            return element.end
        }
        properties = found
    }

    /// The packet without `doomed` properties.
    func removing(_ doomed: [Property]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var cursor = 0
        for property in doomed.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where property.range.lowerBound >= cursor {
            result += bytes[cursor ..< property.range.lowerBound]
            cursor = property.range.upperBound
        }
        return result + bytes[cursor...]
    }

    // MARK: Names

    /// Namespace URIs and the prefixes reports use for them.
    static let namespaces: [String: String] = [
        "http://ns.adobe.com/exif/1.0/": "exif", "http://ns.adobe.com/photoshop/1.0/": "photoshop",
        "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/": "Iptc4xmpCore",
        "http://iptc.org/std/Iptc4xmpExt/2008-02-29/": "Iptc4xmpExt", "http://ns.adobe.com/exif/1.0/aux/": "aux",
        "http://cipa.jp/exif/1.0/": "exifEX", "http://ns.adobe.com/tiff/1.0/": "tiff",
        "http://purl.org/dc/elements/1.1/": "dc", "http://ns.adobe.com/xap/1.0/": "xmp",
        "http://ns.adobe.com/xmp/note/": "xmpNote",
    ]

    static let locationNames: Set<String> = [
        "photoshop:City", "photoshop:State", "photoshop:Country", "Iptc4xmpCore:Location", "Iptc4xmpCore:CountryCode",
        "Iptc4xmpExt:LocationShown", "Iptc4xmpExt:LocationCreated", "Iptc4xmpExt:Sublocation", "Iptc4xmpExt:City",
        "Iptc4xmpExt:ProvinceState", "Iptc4xmpExt:CountryName", "Iptc4xmpExt:CountryCode",
    ]
    static let identityNames: Set<String> = [
        "aux:SerialNumber", "aux:LensSerialNumber", "aux:OwnerName", "exifEX:BodySerialNumber",
        "exifEX:LensSerialNumber", "exifEX:CameraOwnerName", "tiff:Artist", "dc:creator",
    ]
    static let captureTimeNames: Set<String> = ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"]
    /// Says that extended XMP follows; it goes when the extended XMP does.
    static let extendedNote = "xmpNote:HasExtendedXMP"

    /// The property a qualified name is, resolved through the packet's prefixes (falling back
    /// to the conventional ones), or nil when it is of no interest.
    private static func property(_ qualified: Substring, prefixes: [String: String], range: Range<Int>,
                                 value: String?) -> Property? {
        guard let colon = qualified.firstIndex(of: ":") else { return nil }
        let (prefix, local) = (String(qualified[..<colon]), qualified[qualified.index(after: colon)...])
        let conventional = prefixes[prefix].flatMap { namespaces[$0] } ?? (prefixes[prefix] == nil ? prefix : nil)
        guard let conventional else { return nil }
        let name = conventional + ":" + local
        let category: ImagePrivacy.Category?
        if locationNames.contains(name) || (conventional == "exif" && local.hasPrefix("GPS")) {
            category = .location
        } else if identityNames.contains(name) {
            category = .identity
        } else if captureTimeNames.contains(name) || name == extendedNote {
            category = nil
        } else {
            return nil
        }
        return Property(field: "XMP " + name, category: category, range: range, value: value,
                        isCaptureTime: captureTimeNames.contains(name))
    }

    // MARK: Reading the markup

    struct Tag {
        var name: Substring
        var attributes: [(name: Substring, value: String, range: Range<Int>)]
        /// From the whitespace before the tag to its `>`.
        var range: Range<Int>
        var selfClosing: Bool
    }

    /// Calls `visit` for each start tag; a returned offset resumes the scan there (past an
    /// element taken whole).
    private func scan(_ visit: (Tag) throws -> Int?) throws {
        var index = 0
        while let open = find(0x3C, from: index) {
            if starts("<!--", at: open) {
                index = try after("-->", from: open + 4)
            } else if starts("<?", at: open) {
                index = try after("?>", from: open + 2)
            } else if starts("<!", at: open) || starts("</", at: open) {
                index = try after(">", from: open + 2)
            } else {
                let tag = try startTag(at: open)
                index = try visit(tag) ?? tag.range.upperBound
            }
        }
    }

    private func startTag(at open: Int) throws -> Tag {
        var index = open + 1
        let nameStart = index
        while index < bytes.count, !Self.isNameEnd(bytes[index]) { index += 1 }
        let name = text(nameStart ..< index)
        var attributes: [(Substring, String, Range<Int>)] = []
        while true {
            let spaceStart = index
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { throw MetadataError("an XMP tag at \(open) is not closed") }
            if bytes[index] == 0x3E {
                return Tag(name: name, attributes: attributes, range: leadingSpace(before: open) ..< index + 1, selfClosing: false)
            }
            if bytes[index] == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x3E {
                return Tag(name: name, attributes: attributes, range: leadingSpace(before: open) ..< index + 2, selfClosing: true)
            }
            let attributeStart = index
            while index < bytes.count, !Self.isNameEnd(bytes[index]) { index += 1 }
            let attributeName = text(attributeStart ..< index)
            while index < bytes.count, Self.isSpace(bytes[index]) || bytes[index] == 0x3D { index += 1 }
            guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27, !attributeName.isEmpty else {
                throw MetadataError("an XMP attribute at \(attributeStart) has no quoted value")
            }
            guard let close = find(bytes[index], from: index + 1) else {
                throw MetadataError("an XMP attribute at \(attributeStart) is not closed")
            }
            attributes.append((attributeName, String(text(index + 1 ..< close)), spaceStart ..< close + 1))
            index = close + 1
        }
    }

    /// Where the element `tag` opens ends, and its text when it holds no markup.
    private func elementEnd(from tag: Tag) throws -> (end: Int, text: String?) {
        if tag.selfClosing { return (tag.range.upperBound, nil) }
        var depth = 1
        var index = tag.range.upperBound
        while let open = find(0x3C, from: index) {
            if starts("<!--", at: open) {
                index = try after("-->", from: open + 4)
            } else if starts("<?", at: open) || starts("<!", at: open) {
                index = try after(">", from: open + 2)
            } else if starts("</", at: open) {
                depth -= 1
                let end = try after(">", from: open + 2)
                if depth == 0 {
                    let inner = text(tag.range.upperBound ..< open)
                    return (end, inner.contains("<") ? nil : String(inner))
                }
                index = end
            } else {
                let inner = try startTag(at: open)
                if !inner.selfClosing { depth += 1 }
                index = inner.range.upperBound
            }
        }
        throw MetadataError("the XMP element \(tag.name) at \(tag.range.lowerBound) is not closed")
    }

    private func leadingSpace(before index: Int) -> Int {
        var start = index
        while start > 0, Self.isSpace(bytes[start - 1]) { start -= 1 }
        return start
    }

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].firstIndex(of: byte)
    }

    private func starts(_ text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return (0 ..< count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
    }

    private func after(_ text: StaticString, from index: Int) throws -> Int {
        var at = index
        while let found = find(text.utf8Start[0], from: at) {
            if starts(text, at: found) { return found + text.utf8CodeUnitCount }
            at = found + 1
        }
        throw MetadataError("the XMP packet ends inside markup that starts before \(index)")
    }

    private func text(_ range: Range<Int>) -> Substring {
        Substring(String(decoding: bytes[range], as: UTF8.self))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    private static func isNameEnd(_ byte: UInt8) -> Bool { isSpace(byte) || byte == 0x3E || byte == 0x2F || byte == 0x3D }
}

extension XMPPacket {
    /// Adds the packet's fields to a report.
    func report(into privacy: inout ImagePrivacy) {
        for property in properties {
            if let category = property.category { privacy.add(property.field, category) }
            if property.isCaptureTime { privacy.noteCaptureTime(property.value) }
        }
    }

    /// The properties a strip of `scope` removes; with `extendedGone`, the note that extended
    /// XMP follows too.
    func doomed(by scope: MetadataScope, extendedGone: Bool = false) -> [Property] {
        properties.filter { property in
            switch property.category {
            case .location: scope.removesLocation
            case .identity: scope.removesIdentity
            case nil: extendedGone && property.field == "XMP " + Self.extendedNote
            }
        }
    }
}
