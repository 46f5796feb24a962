import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GalleryTestSupport
import Testing

/// The desktop files of Specs/freedesktop that the Debian package installs (scripts/make-deb):
/// both entries pass the desktop's own validator, the launcher is shown and opens the Pictures
/// folder, the file handler stays hidden, and every icon an entry names is there, as SVG that an
/// icon theme can use. `scripts/test-package` checks the same files once installed.
@Suite("Desktop entries and icons")
struct DesktopEntriesAndIconsTests {
    static let appIcon = "io.github.imagegallery.imagegallery"
    static let launcher = appIcon + ".desktop"
    /// The name GIO gives the type's icon (its MIME type with `/` as `-`; `DesktopIntegrationTests` asks GIO).
    static let typeIcon = "application-vnd.imagegallery+zip"

    static func lines(_ name: String) throws -> [String] {
        String(decoding: try FileBytes.read(TestPaths.spec("freedesktop/" + name)), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(arguments: ["imagegallery.desktop", launcher])
    func theEntryValidates(_ name: String) throws {
        let validator = try #require(Subprocess.which("desktop-file-validate"), "desktop-file-validate is not installed: run scripts/install-deps")
        let result = try Subprocess.run(validator, [TestPaths.spec("freedesktop/" + name)])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(name): \(result.stdout) \(result.stderr)")
    }

    @Test func theLauncherIsShownAndOpensThePicturesFolder() throws {
        let lines = try Self.lines(Self.launcher)
        #expect(lines.contains("Name=Image Galleries"))
        #expect(lines.contains("Exec=imagegallery edit --pictures"))
        #expect(lines.contains("Icon=\(Self.appIcon)"))
        #expect(!lines.contains { $0.hasPrefix("NoDisplay=") || $0.hasPrefix("Hidden=") || $0.hasPrefix("MimeType=") }, "\(lines)")
    }

    /// The file handler is as it was, with an icon for "Open With".
    @Test func theFileHandlerStaysHiddenWithTheApplicationIcon() throws {
        let lines = try Self.lines("imagegallery.desktop")
        #expect(lines.contains("NoDisplay=true"))
        #expect(lines.contains("Exec=imagegallery edit %f"))
        #expect(lines.contains("MimeType=application/vnd.imagegallery+zip;"))
        #expect(lines.contains("Icon=\(Self.appIcon)"))
    }

    /// Each icon in full colour and symbolic: well-formed SVG with a viewBox, small, with no
    /// editor's metadata; a symbolic one on a 16 × 16 grid and in one grey (the desktop recolours
    /// it), as the freedesktop symbolic icon convention asks.
    @Test(arguments: [appIcon, typeIcon, appIcon + "-symbolic", typeIcon + "-symbolic"])
    func theIconIsASimpleSvg(_ name: String) throws {
        let bytes = try FileBytes.read(TestPaths.spec("freedesktop/icons/\(name).svg"))
        #expect(bytes.count < 2048, "\(name): \(bytes.count) bytes")
        let reader = SVGReader()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = reader
        #expect(parser.parse(), "\(name): \(String(describing: parser.parserError))")
        #expect(reader.root?.name == "svg", "\(name)")
        let viewBox = try #require(reader.root?.attributes["viewBox"], "\(name) has no viewBox")
        let text = String(decoding: bytes, as: UTF8.self)
        for editor in ["inkscape", "sodipodi", "<metadata"] { #expect(!text.contains(editor), "\(name) carries \(editor)") }
        if name.hasSuffix("-symbolic") {
            #expect(viewBox == "0 0 16 16", "\(name)")
            #expect(Set(reader.fills) == ["#bebebe"], "\(name): \(reader.fills)")
            #expect(reader.elements.allSatisfy { $0.attributes["stroke"] == nil }, "\(name): a stroke would not be recoloured")
        } else {
            #expect(Set(reader.fills).count <= 5, "\(name): \(Set(reader.fills))")
        }
    }

    final class SVGReader: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var root: (name: String, attributes: [String: String])? { elements.first }
        var fills: [String] { elements.dropFirst().compactMap { $0.attributes["fill"] } }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements.append((name, attributes))
        }
    }
}
