// An EXIF block's TIFF structure (CIPA DC-008): IFD0, the Exif IFD, the GPS IFD, the
// interoperability IFD and IFD1 (the thumbnail's), read within the block's bounds.
//
// A strip rewrites it in place and keeps its size: an entry leaves its directory by moving the
// entries after it up (values elsewhere keep their offsets, so a MakerNote that points into the
// block still reads), and the bytes of what was removed become zeros. Nothing else moves.

/// An EXIF block (the TIFF structure, without JPEG's `Exif\0\0`), read and edited in place.
struct ExifBlock {
    struct Entry {
        var tag: Int
        var type: Int
        /// The entry's 12 bytes start here.
        var at: Int
        /// Where an out-of-line value lies in the block; nil when it fits in the entry or lies
        /// outside the block.
        var value: Range<Int>?
    }

    struct Directory {
        var name: String
        var at: Int
        var entries: [Entry]
        /// The end of the entry table and its next-directory pointer, within the block.
        var end: Int
    }

    /// Directories read at most, and entries in one: a camera writes five and a few hundred.
    static let maximumDirectories = 16
    static let maximumEntries = 4_096

    private(set) var bytes: [UInt8]
    let little: Bool
    private(set) var directories: [Directory] = []
    /// What a strip removes, zeroed at its end except where a kept structure lies: in a hostile
    /// block a removed value can overlap a directory or a kept value, which must still read.
    private var doomed: [Range<Int>] = []
    /// The thumbnail's bytes after a strip made it slimmer.
    private var thumbnail: Range<Int>?

    /// Reads the directories; throws on a broken header, a directory past the end, or a loop.
    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 8 else { throw MetadataError("the EXIF block is \(bytes.count) bytes, too short for a TIFF header") }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: throw MetadataError("the EXIF block does not start with a TIFF byte order (II or MM)")
        }
        guard u16(2) == 42 else { throw MetadataError("the EXIF block's TIFF header has no 42") }
        var visited = Set<Int>()
        let first = try directory("IFD0", at: u32(4), visited: &visited)
        directories.append(first)
        for (tag, name) in [(0x8769, "Exif IFD"), (0x8825, "GPS IFD")] {
            if let pointer = first.entries.first(where: { $0.tag == tag }) {
                directories.append(try directory(name, at: u32(pointer.at + 8), visited: &visited))
            }
        }
        if let exif = directories.first(where: { $0.name == "Exif IFD" }),
           let pointer = exif.entries.first(where: { $0.tag == 0xA005 }) {
            directories.append(try directory("Interoperability IFD", at: u32(pointer.at + 8), visited: &visited))
        }
        if first.end == first.at + 6 + 12 * first.entries.count, case let next = u32(first.end - 4), next != 0 {
            directories.append(try directory("IFD1", at: next, visited: &visited))
        }
    }

    private func directory(_ name: String, at offset: Int, visited: inout Set<Int>) throws -> Directory {
        guard offset >= 8, offset <= bytes.count - 2 else {
            throw MetadataError("the EXIF \(name) at \(offset) lies outside the block (\(bytes.count) bytes)")
        }
        guard visited.insert(offset).inserted, visited.count <= Self.maximumDirectories else {
            throw MetadataError("the EXIF \(name) at \(offset) is reached twice (a directory loop)")
        }
        let count = u16(offset)
        guard count <= Self.maximumEntries, offset + 2 + 12 * count <= bytes.count else {
            throw MetadataError("the EXIF \(name) at \(offset) declares \(count) entries, past the block's end")
        }
        var entries: [Entry] = []
        for index in 0 ..< count {
            let at = offset + 2 + 12 * index
            let type = u16(at + 2)
            let length = UInt64(UInt32(truncatingIfNeeded: u32(at + 4))) * UInt64(Self.typeSize(type))
            var value: Range<Int>?
            if length > 4 {
                let start = UInt64(u32(at + 8))
                if start >= 8, start + length <= UInt64(bytes.count) { value = Int(start) ..< Int(start + length) }
            }
            entries.append(Entry(tag: u16(at), type: type, at: at, value: value))
        }
        // The next-directory pointer, when the block holds it (some writers end the block early).
        let tableEnd = offset + 2 + 12 * count
        return Directory(name: name, at: offset, entries: entries, end: min(bytes.count, tableEnd + 4))
    }

    /// Bytes per value of a TIFF type; 1 for types TIFF 6 does not define.
    static func typeSize(_ type: Int) -> Int {
        switch type {
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: 1
        }
    }

    func u16(_ at: Int) -> Int { little ? bytes.le16(at) : bytes.be16(at) }
    func u32(_ at: Int) -> Int { Int(little ? bytes.le32(at) : bytes.be32(at)) }

    // MARK: What it says

    /// Identity tags and the names reports give them. Copyright (0x8298) is not among them.
    static let identityTags: [Int: String] = [
        0xA431: "EXIF BodySerialNumber", 0xA435: "EXIF LensSerialNumber", 0x927C: "EXIF MakerNote",
        0xA430: "EXIF CameraOwnerName", 0x013B: "EXIF Artist", 0xC62F: "EXIF CameraSerialNumber",
    ]

    var gpsDirectory: Directory? { directories.first { $0.name == "GPS IFD" } }

    /// The GPS pointer, with or without entries behind it; identity tags wherever they are.
    func report(into privacy: inout ImagePrivacy) {
        if directories[0].entries.contains(where: { $0.tag == 0x8825 }) { privacy.add("EXIF GPS", .location) }
        for directory in directories {
            for entry in directory.entries {
                if let name = Self.identityTags[entry.tag] { privacy.add(name, .identity) }
            }
        }
        let exif = directories.first { $0.name == "Exif IFD" }
        privacy.noteCaptureTime(exif.flatMap { text(of: 0x9003, in: $0) } ?? text(of: 0x0132, in: directories[0]))
    }

    private func text(of tag: Int, in directory: Directory) -> String? {
        guard let entry = directory.entries.first(where: { $0.tag == tag && $0.type == 2 }) else { return nil }
        let count = min(u32(entry.at + 4), 64)
        let range = entry.value ?? (count <= 4 ? entry.at + 8 ..< entry.at + 8 + count : 0 ..< 0)
        return String(decoding: bytes[range].prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The orientation IFD0 gives (1 to 8), or nil.
    var orientation: Int? {
        guard let entry = directories[0].entries.first(where: { $0.tag == 0x0112 && $0.type == 3 }) else { return nil }
        let value = u16(entry.at + 8)
        return (1 ... 8).contains(value) ? value : nil
    }

    // MARK: Removing

    /// Removes what `scope` names, in place; returns whether anything changed.
    mutating func strip(_ scope: MetadataScope) -> Bool {
        var changed = false
        if scope.removesLocation, let gps = gpsDirectory {
            for entry in gps.entries { blank(entry.value) }
            blank(gps.at ..< gps.end)
            directories.removeAll { $0.name == "GPS IFD" }
            changed = true
        }
        if scope.removesLocation, directories[0].entries.contains(where: { $0.tag == 0x8825 }) {
            removeEntries(from: 0) { $0.tag == 0x8825 }
            changed = true
        }
        if scope.removesIdentity {
            for index in directories.indices where directories[index].name != "GPS IFD" {
                if directories[index].entries.contains(where: { Self.identityTags[$0.tag] != nil }) {
                    removeEntries(from: index) { Self.identityTags[$0.tag] != nil }
                    changed = true
                }
            }
        }
        if stripThumbnail() { changed = true }
        zeroDoomed()
        return changed
    }

    /// Zeroes what was removed, but no byte of a directory still read, of a kept value or of
    /// the thumbnail.
    private mutating func zeroDoomed() {
        var kept = [Bool](repeating: false, count: bytes.count)
        func keep(_ range: Range<Int>?) {
            guard let range else { return }
            for index in max(0, range.lowerBound) ..< min(bytes.count, max(range.lowerBound, range.upperBound)) { kept[index] = true }
        }
        keep(0 ..< 8)
        for directory in directories {
            keep(directory.at ..< directory.end)
            for entry in directory.entries { keep(entry.value) }
        }
        keep(thumbnail)
        for range in doomed {
            for index in max(0, range.lowerBound) ..< min(bytes.count, max(range.lowerBound, range.upperBound)) where !kept[index] {
                bytes[index] = 0
            }
        }
        doomed = []
    }

    /// Removes the entries `doomed` picks from a directory, blanking their values: the entries
    /// after them move up, the next-directory pointer follows, and the freed bytes are zeros.
    private mutating func removeEntries(from index: Int, where doomed: (Entry) -> Bool) {
        let directory = directories[index]
        let kept = directory.entries.filter { !doomed($0) }
        for entry in directory.entries where doomed(entry) { blank(entry.value) }
        let tableEnd = directory.at + 2 + 12 * directory.entries.count
        let next = tableEnd + 4 <= bytes.count ? Array(bytes[tableEnd ..< tableEnd + 4]) : []
        var table: [UInt8] = little ? [UInt8(kept.count & 0xFF), UInt8(kept.count >> 8)]
            : [UInt8(kept.count >> 8), UInt8(kept.count & 0xFF)]
        for entry in kept { table += bytes[entry.at ..< entry.at + 12] }
        table += next
        for (offset, byte) in table.enumerated() { bytes[directory.at + offset] = byte }
        blank(directory.at + table.count ..< directory.end)
        var moved = directory
        moved.entries = kept.enumerated().map { position, entry in
            var entry = entry
            entry.at = directory.at + 2 + 12 * position
            return entry
        }
        moved.end = directory.at + table.count
        directories[index] = moved
    }

    private mutating func blank(_ range: Range<Int>?) {
        if let range { doomed.append(range) }
    }

    /// IFD1's JPEG thumbnail without its own APPn segments, which can hold a second copy of
    /// the position; it stays where it is, shorter, its length entry made to match.
    private mutating func stripThumbnail() -> Bool {
        guard let ifd1 = directories.first(where: { $0.name == "IFD1" }),
              let offsetEntry = ifd1.entries.first(where: { $0.tag == 0x0201 }),
              let lengthEntry = ifd1.entries.first(where: { $0.tag == 0x0202 }), lengthEntry.type == 4 else { return false }
        let (start, length) = (u32(offsetEntry.at + 8), u32(lengthEntry.at + 8))
        guard start >= 8, length > 0, start + length <= bytes.count,
              let slimmer = JPEGLayout.withoutApplicationSegments(Array(bytes[start ..< start + length])),
              slimmer.count < length else { return false }
        for (offset, byte) in slimmer.enumerated() { bytes[start + offset] = byte }
        thumbnail = start ..< start + slimmer.count
        blank(start + slimmer.count ..< start + length)
        let count = slimmer.count
        let field: [UInt8] = little ? [UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 24)]
            : [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        for (offset, byte) in field.enumerated() { bytes[lengthEntry.at + 8 + offset] = byte }
        return true
    }

    /// The smallest EXIF block that keeps an orientation (little-endian, IFD0 with one entry).
    static func orientationOnly(_ orientation: Int) -> [UInt8] {
        [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
         0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(orientation), 0x00, 0x00, 0x00,
         0x00, 0x00, 0x00, 0x00]
    }
}
