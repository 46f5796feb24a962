import FoundationEssentials
import GalleryFormat

/// The parts of a `ComicInfo.xml` (the ComicRack schema that comic readers share) a gallery
/// uses: the title and the page order. Read with a small scanner of its own, because the file
/// is flat and hostile: no DTD, no entities beyond XML's five and character references, and a
/// size bound, so no expansion bomb is possible.
public struct ComicInfo: Sendable, Hashable {
    /// One `<Page>` element: which image it is and what kind of page.
    public struct Page: Sendable, Hashable {
        /// The index of the image in the archive's images, in name order.
        public var image: Int
        /// `FrontCover`, `Story`, `Deleted`, …
        public var type: String?
    }

    /// The `Title` element: the gallery's title when present.
    public var title: String?
    /// The `Series` element: the title's fallback, with ``number``.
    public var series: String?
    /// The `Number` element: the issue within ``series``, as written (it need not be numeric).
    public var number: String?
    /// The `<Page>` elements in document order: the gallery's image order when they name the
    /// archive's images.
    public var pages: [Page] = []

    /// Comic info with these fields; an archive's own is read with ``parse(_:)``.
    public init(title: String? = nil, series: String? = nil, number: String? = nil, pages: [Page] = []) {
        self.title = title
        self.series = series
        self.number = number
        self.pages = pages
    }

    /// The title a gallery gets: `Title`, else `Series #Number`, else `Series`.
    public var galleryTitle: String? {
        if let title, !title.isEmpty { return title }
        guard let series, !series.isEmpty else { return nil }
        if let number, !number.isEmpty { return "\(series) #\(number)" }
        return series
    }

    /// A `ComicInfo.xml` that cannot be read; the importer then keeps the archive's name order and
    /// notes why.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// What is wrong with the XML: not UTF-8, a DOCTYPE or entity declaration, an unclosed tag.
        public var description: String
    }

    /// Reads the title, series, number and pages of a `ComicInfo.xml`; other elements are ignored.
    /// Throws ``ParseError`` on text that is not UTF-8, declares a DOCTYPE or entities, or does not
    /// close what it opens.
    public static func parse(_ bytes: [UInt8]) throws -> ComicInfo {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else { throw ParseError(description: "not UTF-8 text") }
        if text.contains("<!DOCTYPE") || text.contains("<!ENTITY") {
            throw ParseError(description: "it declares a DOCTYPE or entities, which are not read")
        }
        var info = ComicInfo()
        var scanner = text.unicodeScalars[...]
        while let open = scanner.firstIndex(of: "<") {
            scanner = scanner[scanner.index(after: open)...]
            if scanner.starts(with: "!--".unicodeScalars) {
                guard let end = scanner.indexOfSequence("-->") else { throw ParseError(description: "an unclosed comment") }
                scanner = scanner[end...]
                continue
            }
            guard let close = scanner.firstIndex(of: ">") else { throw ParseError(description: "an unclosed tag") }
            let tag = String(String.UnicodeScalarView(scanner[..<close]))
            scanner = scanner[scanner.index(after: close)...]
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            switch name {
            case "Title", "Series", "Number":
                guard !tag.hasSuffix("/") else { continue }
                let textEnd = scanner.firstIndex(of: "<") ?? scanner.endIndex
                let value = try decodeEntities(String(String.UnicodeScalarView(scanner[..<textEnd])))
                    .trimmingWhitespace()
                switch name {
                case "Title": info.title = info.title ?? value
                case "Series": info.series = info.series ?? value
                default: info.number = info.number ?? value
                }
            case "Page":
                let attributes = try Self.attributes(of: tag.dropFirst(name.count))
                guard let image = attributes["Image"].flatMap({ Int($0) }), image >= 0 else { continue }
                info.pages.append(Page(image: image, type: attributes["Type"]))
            default:
                continue
            }
        }
        return info
    }

    static func attributes(of text: Substring) throws -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            guard let equals = rest.firstIndex(of: "=") else { return result }
            let key = rest[..<equals].trimmingWhitespace()
            rest = rest[rest.index(after: equals)...].drop(while: \.isWhitespace)
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                throw ParseError(description: "an attribute without quotes")
            }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { throw ParseError(description: "an unclosed attribute") }
            result[key] = try decodeEntities(String(rest[..<end]))
            rest = rest[rest.index(after: end)...]
        }
    }

    static func decodeEntities(_ text: String) throws -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                throw ParseError(description: "a bare & in text")
            }
            let name = rest[rest.index(after: amp) ..< semicolon]
            switch name {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let value: UInt32? = if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    UInt32(name.dropFirst(2), radix: 16)
                } else if name.hasPrefix("#") {
                    UInt32(name.dropFirst())
                } else {
                    nil
                }
                guard let value, let scalar = Unicode.Scalar(value), value != 0 else {
                    throw ParseError(description: "an unknown entity &\(name);")
                }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// A `ComicInfo.xml` for a comic made from a gallery: its title and one `Page` per image, the
    /// page at `cover` marked `FrontCover`, as comic readers look for it.
    public static func render(title: String, pages: [(width: Int, height: Int, byteSize: UInt64)], cover: Int = 0) -> [UInt8] {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
              <Title>\(MarkupText.escape(title, for: .xmlText))</Title>
              <PageCount>\(pages.count)</PageCount>
              <Pages>

            """
        for (index, page) in pages.enumerated() {
            let type = index == cover ? " Type=\"FrontCover\"" : ""
            xml += "    <Page Image=\"\(index)\"\(type) ImageSize=\"\(page.byteSize)\" ImageWidth=\"\(page.width)\" ImageHeight=\"\(page.height)\" />\n"
        }
        xml += "  </Pages>\n</ComicInfo>\n"
        return Array(xml.utf8)
    }
}

extension Substring.UnicodeScalarView {
    func indexOfSequence(_ text: String) -> Index? {
        let needle = Array(text.unicodeScalars)
        var index = startIndex
        while index < endIndex {
            if self[index...].starts(with: needle) { return self.index(index, offsetBy: needle.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
