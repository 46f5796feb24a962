/// Writes the manifest's canonical JSON: keys in byte order, two-space indent, `": "`,
/// LF line ends, a final newline, minimal escaping, integers only. The same value always
/// gives the same bytes, which is what makes saves deterministic.
///
/// `compact` leaves out the indent and the line ends: the editor's views of 10,000 images go
/// to the page this way, five times faster than through `JSONEncoder`.
package struct CanonicalJSONWriter {
    package private(set) var bytes: [UInt8] = []
    private var indent = 0
    private let compact: Bool

    /// Where written bytes go once there are `spillSize` of them, between the elements of an
    /// array: a writer with it never holds a whole 100,000-image manifest. Nil: all in `bytes`.
    package var spill: ((inout [UInt8]) -> Void)?
    package static let spillSize = 1 << 20

    package init(capacity: Int = 4096, compact: Bool = false) {
        bytes.reserveCapacity(capacity)
        self.compact = compact
    }

    package enum Value {
        case string(String)
        case integer(Int64)
        /// A number's text as read: an unknown member's, written again as it was.
        case number(String)
        case object([(String, Value)])
        case array([Value])
        /// An array whose elements are made one at a time, as they are written: a manifest's
        /// 100,000 images as values at once were most of a save's memory.
        case elements(count: Int, element: (Int) -> Value)
        /// Not in manifests, which hold strings and integers only.
        case bool(Bool)
        case null
    }

    package mutating func write(_ value: Value) {
        switch value {
        case .string(let text): writeString(text)
        case .integer(let number): Self.appendInteger(number, to: &bytes)
        case .number(let text): bytes += Array(text.utf8)
        case .bool(let flag): bytes += Array((flag ? "true" : "false").utf8)
        case .null: bytes += Array("null".utf8)
        case .array(let elements): writeArray(count: elements.count) { elements[$0] }
        case .elements(let count, let element): writeArray(count: count, element)
        case .object(let members):
            guard !members.isEmpty else { bytes += [0x7B, 0x7D]; return }
            // Callers list members in key order already; sorting 10,000 small objects again costs.
            assert(zip(members, members.dropFirst()).allSatisfy { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) },
                   "object members out of canonical order")
            let sorted = members
            bytes.append(0x7B)
            indent += 1
            for (position, member) in sorted.enumerated() {
                newline()
                writeString(member.0)
                bytes.append(0x3A)
                if !compact { bytes.append(0x20) }
                write(member.1)
                if position + 1 < sorted.count { bytes.append(0x2C) }
            }
            indent -= 1
            newline()
            bytes.append(0x7D)
        }
    }

    private mutating func writeArray(count: Int, _ element: (Int) -> Value) {
        guard count > 0 else { bytes += [0x5B, 0x5D]; return }
        bytes.append(0x5B)
        indent += 1
        for position in 0 ..< count {
            newline()
            write(element(position))
            if position + 1 < count { bytes.append(0x2C) }
            if let spill, bytes.count >= Self.spillSize { spill(&bytes) }
        }
        indent -= 1
        newline()
        bytes.append(0x5D)
    }

    package mutating func finishDocument() { bytes.append(0x0A) }

    private mutating func newline() {
        guard !compact else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * indent))
    }

    private mutating func writeString(_ text: String) { Self.appendString(text, to: &bytes) }

    /// `text` as a JSON string with the format's escapes (`"`, `\` and the controls below
    /// 0x20, nothing else), appended to `bytes`: for writers of JSON beside this one, such as the
    /// editor's image list, so that every canonical string is escaped by this code alone.
    package static func appendString(_ text: String, to bytes: inout [UInt8]) {
        appendText(atMost: JSONTextCursor.stringBytes(text), to: &bytes) { $0.string(text) }
    }
}
