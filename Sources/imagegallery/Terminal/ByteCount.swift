import FoundationEssentials

enum ByteCount {
    /// "1.4 MB (1412345 bytes)"-style, decimal units as file managers show them.
    static func describe(_ bytes: UInt64) -> String {
        let units = ["bytes", "kB", "MB", "GB", "TB"]
        var unit = 0
        var scale: UInt64 = 1
        while unit < units.count - 1, bytes / scale >= 1000 { unit += 1; scale *= 1000 }
        guard unit > 0 else { return "\(bytes) bytes" }
        // Tenths of the unit, rounded half up on the exact count: integers only, so 1,050 bytes
        // is 1.1 kB and 1,150 bytes 1.2 kB, where a Double's 1.15 (1.1499…) would give 1.1.
        let tenth = scale / 10
        let tenths = bytes / tenth + (bytes % tenth >= tenth / 2 ? 1 : 0)
        return "\(tenths / 10).\(tenths % 10) \(units[unit]) (\(bytes) bytes)"
    }
}
