/// Percent-encoding (RFC 3986, section 2.1) of paths for the places that want a URI: the
/// trash's `.trashinfo` files, SARIF's artifact locations.
package enum PercentEncoding {
    /// RFC 2396's unreserved marks, which the trash specification keeps as they are.
    package static let unreservedMarks = "-_.!~*'()"

    /// Every byte of `text`'s UTF-8 as `%XX` (upper-case hex), but ASCII letters, digits and
    /// the characters of `marks`.
    package static func encode(_ text: String, keeping marks: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                 UInt8(ascii: "0") ... UInt8(ascii: "9"):
                out.append(byte)
            case _ where marks.utf8.contains(byte):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
