import FoundationEssentials
import GalleryFormat
import GalleryImaging
import GallerySystem

/// The pages of a web gallery: names by position, and the HTML and the data script, every
/// gallery text (title, captions, file names) escaped where it lands.
struct WebGallerySite: Sendable {
    let title: String
    let images: [GalleryImage]
    let galleryPath: String
    /// Digits in a page or image number: at least three, so names sort in order.
    let digits: Int
    /// The position of the image that stands for the gallery (``Gallery/coverImage``): the
    /// sharing card's picture.
    let coverPosition: Int?
    /// Where the folder will be published, if the owner said: the sharing tags need absolute
    /// addresses, so they are written only with one.
    let baseURL: WebGalleryBaseURL?

    init(gallery: Gallery, galleryPath: String, baseURL: WebGalleryBaseURL? = nil) {
        let trimmed = gallery.title.trimmingWhitespace()
        if trimmed.isEmpty {
            let name = GalleryFileSystem.splitExtension(GalleryFileSystem.fileName(of: galleryPath)).stem
            title = name.isEmpty ? "Gallery" : name
        } else {
            title = gallery.title
        }
        images = gallery.images
        self.galleryPath = galleryPath
        digits = max(3, String(gallery.images.count).count)
        coverPosition = gallery.coverImage.flatMap { cover in gallery.images.firstIndex { $0.id == cover.id } }
        self.baseURL = baseURL
    }

    // MARK: Names by position (0-based positions; 1-based numbers in names)

    func number(_ position: Int) -> String { (position + 1).zeroPadded(toWidth: digits) }

    func imagePath(_ position: Int) -> String { "images/\(number(position)).\(images[position].mediaType.fileExtension)" }
    func thumbnailPath(_ position: Int) -> String { "thumbs/\(number(position)).png" }
    /// The JPEG rendition of an image browsers cannot show (HEIC).
    func shownPath(_ position: Int) -> String { "shown/\(number(position)).jpg" }
    /// A rendition, `sized/NNN-SIDE.jpg`: sorted by position, then side.
    func renditionPath(_ position: Int, side: Int, format: String) -> String { "sized/\(number(position))-\(side).\(format)" }
    func pageName(_ position: Int) -> String { "\(number(position)).html" }
    func pagePath(_ position: Int) -> String { "pages/" + pageName(position) }

    /// The image for an error message: position, blob entry and recorded file name.
    func describe(_ position: Int) -> String {
        let image = images[position]
        return "image \(position + 1) (\(image.path)" + (image.filename.map { ", \($0.debugDescription)" } ?? "") + ")"
    }

    /// The position: a file name says little to someone who cannot see the image, and the
    /// caption is beside the picture already (its `<figcaption>`), so a screen reader would
    /// read it twice.
    func alt(_ position: Int) -> String { "Image \(position + 1) of \(images.count)" }

    /// The caption, trimmed; empty when there is none.
    func caption(_ position: Int) -> String { images[position].caption.map { $0.trimmingWhitespace() } ?? "" }

    // MARK: Pages

    /// The head every page shares. The policy allows local files only: no network, no inline
    /// script or style, so even a text that escaped its escaping could run nothing.
    func head(title pageTitle: String, root: String, extra: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(WebGalleryWriter.generatorMarker) \(MarkupText.escape(GalleryVersion.string, for: .html))">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file:; style-src 'self' file:; script-src 'self' file:; base-uri 'none'; form-action 'none'">
        <meta name="referrer" content="no-referrer">
        <title>\(MarkupText.escape(pageTitle, for: .html))</title>
        <link rel="stylesheet" href="\(root)assets/gallery.css">
        \(extra)</head>

        """
    }

    func indexPage(_ written: [WebGalleryWriter.WrittenImage]) -> String {
        var html = head(title: title, root: "", extra: sharingTags(written) + structuredData(written))
        let count = images.count == 1 ? "1 image" : "\(images.count) images"
        // The Play button appears with the script that runs the slideshow.
        let play = images.isEmpty ? "" : "<button type=\"button\" class=\"play\" id=\"play\" hidden>\u{25B6} Play</button>"
        html += """
            <body class="grid-page" data-count="\(images.count)">
            <header class="top"><h1>\(MarkupText.escape(title, for: .html))</h1><p class="meta">\(count)</p>\(play)</header>
            <main>

            """
        if images.isEmpty {
            html += "<p class=\"empty\">This gallery has no images.</p>\n"
        } else {
            html += "<ul class=\"grid\" id=\"grid\">\n"
            for position in images.indices {
                let size = written[position].thumbnailSize
                let caption = caption(position)
                // The row is 180 px high: the tile is as wide as the thumbnail's aspect makes it.
                let shown = (180 * size.width + size.height - 1) / max(size.height, 1)
                html += "<li><figure><a id=\"i\(position + 1)\" href=\"\(pagePath(position))\">"
                    + "<img src=\"\(written[position].thumbnail)\" srcset=\"\(gridSrcset(position, written[position]))\" "
                    + "sizes=\"\(shown)px\" width=\"\(size.width)\" height=\"\(size.height)\" "
                    + "alt=\"\(MarkupText.escape(alt(position), for: .html))\"\(position < Self.eagerTiles ? "" : " loading=\"lazy\"")></a>"
                    + (caption.isEmpty ? "" : "<figcaption>\(MarkupText.escape(caption, for: .html))</figcaption>")
                    + "</figure></li>\n"
            }
            html += "</ul>\n"
        }
        html += """
            </main>
            <footer class="help">Arrow keys choose an image, Enter opens it, Play shows them one by one.</footer>
            <script src="assets/gallery.js"></script>
            </body>
            </html>

            """
        return html
    }

    func imagePage(at position: Int, _ written: [WebGalleryWriter.WrittenImage]) -> String {
        let image = images[position]
        let size = written[position].uprightSize
        let number = position + 1
        var html = head(title: "\(title) (\(number)/\(images.count))", root: "../")
        func link(_ to: Int, _ kind: String, _ label: String, _ glyph: String, _ key: String) -> String {
            guard images.indices.contains(to) else { return "<span class=\"nav \(kind) none\" aria-hidden=\"true\"></span>" }
            return "<a class=\"nav \(kind)\" href=\"\(pageName(to))\" rel=\"\(kind)\" title=\"\(label) (\(key))\" "
                + "aria-label=\"\(label)\">\(glyph)</a>"
        }
        var details = [String]()
        if let filename = image.filename, !filename.isEmpty { details.append("<span class=\"filename\">\(MarkupText.escape(filename, for: .html))</span>") }
        details.append("\(size.width) \u{00D7} \(size.height)")
        details.append(image.mediaType.name)
        details.append("<a href=\"../\(imagePath(position))\">original</a>")
        let caption = caption(position)
        html += """
            <body class="image-page" data-index="\(number)" data-count="\(images.count)" data-page="\(pageName(position))" \
            data-first="\(pageName(0))" data-last="\(pageName(images.count - 1))" data-grid="../index.html#i\(number)">
            <header class="bar">
            <a class="back" href="../index.html#i\(number)" title="All images (Esc)">\u{2190} \(MarkupText.escape(title, for: .html))</a>
            <span class="counter">\(number) / \(images.count)</span>
            <span class="tools"><button type="button" class="zoom-out" title="Zoom out (-)" aria-label="Zoom out">\u{2212}</button>\
            <button type="button" class="zoom-fit" title="Fit (0)">Fit</button>\
            <button type="button" class="zoom-in" title="Zoom in (+)" aria-label="Zoom in">+</button>\
            <a class="play" href="../index.html#/slide/\(number)" title="Slideshow from this image">\u{25B6} Play</a></span>
            </header>
            <main class="frame"><figure class="shot">
            <div class="viewer">
            <div class="stage" id="stage"><img class="photo" id="photo" src="../\(written[position].shown ?? imagePath(position))" \
            width="\(size.width)" height="\(size.height)" alt="\(MarkupText.escape(alt(position), for: .html))"></div>
            \(link(position - 1, "prev", "Previous image", "\u{2039}", "\u{2190}"))
            \(link(position + 1, "next", "Next image", "\u{203A}", "\u{2192}"))
            </div>
            <figcaption class="info">\(caption.isEmpty ? "" : "<p class=\"caption\">\(MarkupText.escape(caption, for: .html))</p>")\
            <p class="details">\(details.joined(separator: " \u{00B7} "))</p></figcaption>
            </figure></main>
            <nav class="strip" id="strip" aria-label="All images"></nav>
            <script src="../assets/gallery-data.js"></script>
            <script src="../assets/gallery.js"></script>
            </body>
            </html>

            """
        return html
    }

    /// Tiles loaded at once: the first rows, which a reader sees before scrolling; the rest are lazy.
    static let eagerTiles = 12

    /// `assets/gallery-data.js`: what the paging strip and the slideshow are built from, as a plain script (a
    /// `file://` page may not fetch JSON). Every string is a JSON string with `<`, `>`, `&` and
    /// all non-ASCII escaped.
    func dataScript(_ written: [WebGalleryWriter.WrittenImage]) -> String {
        var text = "window.IMAGEGALLERY = {\"title\": \(HTML.jsString(title)), \"images\": [\n"
        for position in images.indices {
            text += "  {\"page\": \"\(pageName(position))\", \"image\": \"\(written[position].shown ?? imagePath(position))\", "
                + "\"thumb\": \"\(written[position].thumbnail)\", \"alt\": \(HTML.jsString(alt(position))), "
                + "\"thumbWidth\": \(written[position].thumbnailSize.width), "
                + "\"thumbHeight\": \(written[position].thumbnailSize.height), "
                + "\"bytes\": \(written[position].imageSize), \"sha256\": \"\(written[position].imageSHA256)\", "
                + "\"srcset\": \"\(srcset(position, written[position]))\"}"
                + (position == images.count - 1 ? "\n" : ",\n")
        }
        return text + "]};\n"
    }
}

/// Escaping for the script gallery text lands in (markup is `MarkupText.escape(_:for: .html)`).
enum HTML {
    /// A JavaScript (and JSON) string literal in plain ASCII: safe in any encoding, and
    /// nothing in it can close a script element.
    static func jsString(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20 ..< 0x7F where unit != 0x3C && unit != 0x3E && unit != 0x26:
                out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }
}
