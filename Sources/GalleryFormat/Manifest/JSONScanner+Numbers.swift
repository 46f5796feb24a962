/// Numbers, checked against the grammar and kept exact when they are integers.
extension JSONScanner {
    /// Reads a number, checked against the grammar (no leading zeros, digits after "." and "e").
    package mutating func readNumber() throws -> Number {
        try skipWhitespace()
        let start = position
        var negative = false
        if try available(1), bytes[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        let digitsStart = position
        var magnitude: UInt64 = 0
        var overflow = false
        while try available(1), bytes[position] >= 0x30, bytes[position] <= 0x39 {
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(bytes[position] - 0x30))
            overflow = overflow || o1 || o2
            magnitude = m2
            position += 1
        }
        let digitCount = position - digitsStart
        guard digitCount > 0 else { throw error(.jsonSyntax, "a number needs digits", at: start) }
        if digitCount > 1, bytes[digitsStart] == UInt8(ascii: "0") {
            throw error(.jsonSyntax, "a number may not have leading zeros", at: start)
        }
        var isInteger = true
        if try available(1), bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let fractionStart = position
            while try available(1), bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            guard position > fractionStart else { throw error(.jsonSyntax, "a fraction needs digits", at: start) }
        }
        if try available(1), bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if try available(1), bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            let exponentStart = position
            while try available(1), bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            guard position > exponentStart else { throw error(.jsonSyntax, "an exponent needs digits", at: start) }
        }
        if isInteger, !overflow {
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)) }
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start ..< position]), as: UTF8.self)
        return .other(Double(text) ?? .infinity)
    }
}

extension JSONScanner {
    /// Reads a number, checked as ``readNumber()`` checks it, and gives its text as written: what
    /// an unknown member keeps, since a Double would round it.
    mutating func readNumberText() throws -> String {
        try skipWhitespace()
        let start = position
        _ = try readNumber()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start ..< position]), as: UTF8.self)
    }
}
