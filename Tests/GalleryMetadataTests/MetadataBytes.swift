import Foundation

/// Metadata structures built byte by byte, for the cases real writers do not make on demand:
/// a TIFF with a MakerNote at a known offset, an IFD loop, a JPEG with bytes after its end.
enum MetadataBytes {
    /// A little-endian TIFF: `directories` laid out in order, each entry (tag, type, count,
    /// value) or (tag, -1, directory index, []) for a pointer; values past 4 bytes follow.
    static func tiff(_ directories: [[(tag: Int, type: Int, count: Int, value: [UInt8])]]) -> [UInt8] {
        let sizes = directories.map { 2 + 12 * $0.count + 4 }
        let starts = sizes.indices.map { 8 + sizes[..<$0].reduce(0, +) }
        var data: [UInt8] = []
        let dataStart = 8 + sizes.reduce(0, +)
        var tables: [UInt8] = []
        for entries in directories {
            tables += le16(entries.count)
            for entry in entries {
                tables += le16(entry.tag)
                if entry.type < 0 {
                    tables += le16(4) + le32(1) + le32(starts[entry.count])
                } else if entry.value.count <= 4 {
                    tables += le16(entry.type) + le32(entry.count) + entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    tables += le16(entry.type) + le32(entry.count) + le32(dataStart + data.count)
                    data += entry.value + (entry.value.count & 1 == 1 ? [0] : [])
                }
            }
            tables += le32(0)
        }
        return [0x49, 0x49, 0x2A, 0x00] + le32(8) + tables + data
    }

    static func ascii(_ tag: Int, _ text: String) -> (tag: Int, type: Int, count: Int, value: [UInt8]) {
        let value = Array(text.utf8) + [0]
        return (tag, 2, value.count, value)
    }

    static func pointer(_ tag: Int, to directory: Int) -> (tag: Int, type: Int, count: Int, value: [UInt8]) {
        (tag, -1, directory, [])
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// A JPEG segment: marker, length, payload.
    static func segment(_ code: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, code] + be16(payload.count + 2) + payload
    }

    /// A real 16 × 16 baseline JPEG (Pillow) with `segments` after its start-of-image marker.
    static func jpeg(with segments: [UInt8]) throws -> [UInt8] {
        let plain = try plainJPEG()
        return Array(plain.prefix(2)) + segments + Array(plain.dropFirst(2))
    }

    static func plainJPEG() throws -> [UInt8] {
        let script = "import io,sys;from PIL import Image;b=io.BytesIO();"
            + "Image.linear_gradient('L').resize((16,16)).convert('RGB').save(b,'JPEG',quality=80);sys.stdout.buffer.write(b.getvalue())"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    /// An XMP packet around `body` (properties of one rdf:Description), with the namespaces
    /// the tests use.
    static func xmp(attributes: String = "", _ body: String) -> [UInt8] {
        Array("""
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
               xmlns:ps="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
               xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:ext="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"\(attributes)>
            \(body)
             </rdf:Description>
            </rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
    }
}
