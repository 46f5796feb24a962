import GalleryFormat

/// What a shared web gallery tells other programs: the responsive picture candidates browsers
/// choose from, the JSON-LD search engines read, and the Open Graph and Twitter card tags chat
/// apps and social sites build a preview from.
extension WebGallerySite {
    /// `srcset` for image `position`: the thumbnail, the renditions, and the shown picture itself
    /// when no rendition is as large (a small picture is never enlarged), each with its upright
    /// width. The slideshow chooses from it by its own `sizes` (it is in `gallery-data.js`).
    func srcset(_ position: Int, _ written: WebGalleryWriter.WrittenImage) -> String {
        candidates(position, written).map { "\($0.path) \($0.width)w" }.joined(separator: ", ")
    }

    /// The grid's `srcset`: the candidates up to ``gridLargest`` px, without the PNG thumbnail
    /// (the `src` of browsers without `srcset`), which a 480 px JPEG outweighs in quality and
    /// often undercuts in bytes. A tile is 180 px high, so 1,024 px covers a 3:2 photo at three
    /// device pixels to the CSS pixel; the 2,048 px candidates are the slideshow's alone, which
    /// keeps 200 tiles' markup within the index's budget.
    func gridSrcset(_ position: Int, _ written: WebGalleryWriter.WrittenImage) -> String {
        let all = candidates(position, written)
        let grid = all.filter { $0.path != written.thumbnail && max($0.width, $0.height) <= Self.gridLargest }
        return (grid.isEmpty ? all : grid).map { "\($0.path) \($0.width)w" }.joined(separator: ", ")
    }

    /// The largest picture the grid offers.
    static let gridLargest = 1024

    /// The pictures of image `position` a browser may choose from, smallest first, no path twice.
    func candidates(_ position: Int, _ written: WebGalleryWriter.WrittenImage) -> [(path: String, width: Int, height: Int)] {
        var list: [(path: String, width: Int, height: Int)] = [(written.thumbnail, written.thumbnailSize.width,
                                                                 written.thumbnailSize.height)]
        list += written.renditions.map { ($0.path, $0.width, $0.height) }
        let largest = WebGalleryWriter.renditionSides.last!
        let upright = written.uprightSize
        if max(upright.width, upright.height) <= largest || written.renditions.isEmpty,
           images[position].mediaType.browsersShow || written.shown != nil {
            list.append((written.shown ?? imagePath(position), upright.width, upright.height))
        }
        var seen = Set<String>()
        return list.filter { seen.insert($0.path).inserted }
    }

    /// The sharing card's picture: the cover's rendition nearest 1,024 px (what the sites show at
    /// most), else its largest candidate.
    func cardPicture(_ written: [WebGalleryWriter.WrittenImage]) -> (path: String, width: Int, height: Int)? {
        guard let cover = coverPosition else { return nil }
        let list = candidates(cover, written[cover])
        return list.first { max($0.width, $0.height) >= 1024 } ?? list.last
    }

    /// `path` as the address a reader should use: absolute under ``baseURL`` when there is one,
    /// else relative to the index.
    func address(_ path: String) -> String { baseURL.map { $0.resolving(path) } ?? path }

    /// `<script type="application/ld+json">` with the gallery as a schema.org `ImageGallery`, its
    /// images as `ImageObject`s in gallery order, their addresses relative to the index (the
    /// gallery's own `url` and `image` absolute under ``baseURL``). A data block: the page's policy runs no inline
    /// script, and this one is never run. Strings as in `gallery-data.js`, so nothing in them can
    /// close the element.
    func structuredData(_ written: [WebGalleryWriter.WrittenImage]) -> String {
        var members: [String] = []
        for position in images.indices {
            let size = written[position].uprightSize
            let caption = caption(position)
            // Relative: a reader resolves them against the page's own address, and 200 absolute
            // pairs would cost 12 KB of the index's budget.
            members.append("{\"@type\":\"ImageObject\",\"contentUrl\":\"\(imagePath(position))\","
                + "\"thumbnailUrl\":\"\(written[position].thumbnail)\","
                + "\"width\":\(size.width),\"height\":\(size.height)"
                + (caption.isEmpty ? "" : ",\"caption\":\(HTML.jsString(caption))") + "}")
        }
        let image = cardPicture(written).map { ",\"image\":\(HTML.jsString(address($0.path)))" } ?? ""
        let url = baseURL.map { ",\"url\":\(HTML.jsString($0.text))" } ?? ""
        return "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"ImageGallery\","
            + "\"name\":\(HTML.jsString(title))\(url)\(image),\"numberOfItems\":\(images.count),\"associatedMedia\":[\n"
            + members.joined(separator: ",\n") + "]}</script>\n"
    }

    /// Open Graph and Twitter card tags for the index, with the cover as the picture. Written
    /// only with a base URL: both want absolute addresses, and a guessed one would be wrong.
    func sharingTags(_ written: [WebGalleryWriter.WrittenImage]) -> String {
        guard let baseURL else { return "" }
        func meta(_ kind: String, _ name: String, _ value: String) -> String {
            "<meta \(kind)=\"\(name)\" content=\"\(MarkupText.escape(value, for: .html))\">\n"
        }
        let count = images.count == 1 ? "1 image" : "\(images.count) images"
        var tags = meta("property", "og:type", "website") + meta("property", "og:title", title)
            + meta("property", "og:description", count) + meta("property", "og:url", baseURL.resolving("index.html"))
        var card = "summary"
        if let picture = cardPicture(written), let cover = coverPosition {
            card = "summary_large_image"
            tags += meta("property", "og:image", baseURL.resolving(picture.path))
                + meta("property", "og:image:width", String(picture.width))
                + meta("property", "og:image:height", String(picture.height))
                + meta("property", "og:image:alt", caption(cover).isEmpty ? alt(cover) : caption(cover))
                + meta("name", "twitter:image", baseURL.resolving(picture.path))
        }
        return tags + meta("name", "twitter:card", card) + meta("name", "twitter:title", title)
    }
}

/// Where a web gallery will be published (`convert --to web --base-url`): an absolute `http` or
/// `https` address, kept ending in `/` so that the folder's relative paths join it.
public struct WebGalleryBaseURL: Sendable, Equatable {
    /// The address, ending in `/`.
    public let text: String

    /// Checks `text`; the error says what is wrong with it, for the caller to name its option.
    public init(_ text: String) throws(WebGalleryBaseURL.Problem) {
        let lowered = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lowered.hasPrefix($0) }) else {
            throw Problem("it must be an absolute http or https address, such as https://example.org/holiday/")
        }
        let rest = text.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.hasPrefix(":"), !host.contains("@") else {
            throw Problem("it has no host name (or carries a user name): write it as https://example.org/holiday/")
        }
        // Spaces, quotes, angle brackets and controls would have to be escaped in every tag and
        // reader; a published folder's address has none.
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || "\"'<>\\`{}|^".unicodeScalars.contains($0) || $0.value > 0x7E }) {
            throw Problem("it contains \(bad.value <= 0x20 || bad.value >= 0x7F ? "U+" + String(bad.value, radix: 16, uppercase: true) : "'\(bad)'"), which an address may not hold unescaped")
        }
        guard !text.contains("?"), !text.contains("#") else {
            throw Problem("it has a query or a fragment; give the folder's address only")
        }
        self.text = text.hasSuffix("/") ? text : text + "/"
    }

    /// `path`, relative to the folder, as an absolute address.
    public func resolving(_ path: String) -> String { text + path }

    /// Why an address was refused.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong with the address, as the usage error names it.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
