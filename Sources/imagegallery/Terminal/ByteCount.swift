import Foundation

enum ByteCount {
    /// "1.4 MB (1412345 bytes)"-style, decimal units as file managers show them.
    static func describe(_ bytes: UInt64) -> String {
        let units = ["bytes", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@ (%llu bytes)", value, units[unit], bytes)
    }
}
