import FoundationEssentials

/// Reading one member's value as the schema types it, reporting and skipping what does not fit.
extension ManifestDecoder {
    /// True when the value has the kind; otherwise reports IG-MAN-007 and skips it.
    mutating func expectKind(_ kind: JSONScanner.Kind, _ scanner: inout JSONScanner, _ name: String) throws -> Bool {
        let found = try scanner.peekKind()
        guard found == kind else {
            report(.wrongType, "the value must be \(name), not \(Self.describe(found))", scanner)
            try scanner.skipValue()
            return false
        }
        return true
    }

    /// `forbidsNUL`: U+0000 is banned in `title` and `filename` only (format sections 6.3, 6.4).
    mutating func string(_ scanner: inout JSONScanner, maxScalars: Int, forbidsNUL: Bool = false) throws -> String? {
        try rawString(&scanner, maxScalars: maxScalars, forbidsNUL: forbidsNUL).map { scanner.decodeString($0) }
    }

    /// ``string(_:maxScalars:forbidsNUL:)`` left undecoded: for values checked on their bytes, and
    /// free text that is only checked when the reader does not keep it.
    mutating func rawString(_ scanner: inout JSONScanner, maxScalars: Int, forbidsNUL: Bool = false) throws
        -> JSONScanner.RawString? {
        guard try expectKind(.string, &scanner, "a string") else { return nil }
        let raw = try scanner.readRawString()
        // A scalar takes at least one byte: only long strings need counting, and they are
        // counted without being decoded, however long.
        if raw.count > maxScalars, scanner.scalarCount(raw) > maxScalars {
            report(.badValue, "the string is longer than \(maxScalars) characters", scanner)
            return nil
        }
        if forbidsNUL, scanner.containsNUL(raw) {
            report(.badValue, "the string contains U+0000", scanner)
            return nil
        }
        return raw
    }

    mutating func uuid(_ scanner: inout JSONScanner) throws -> UUID? {
        guard try expectKind(.string, &scanner, "a string") else { return nil }
        let raw = try scanner.readRawString()
        // Escapes are JSON, not content (section 9.1): an escaped UUID is still a UUID.
        let id = raw.hasEscapes
            ? Array(scanner.decodeString(raw).utf8).withUnsafeBytes { UUID(textBytes: $0) }
            : UUID(textBytes: scanner.rawBytes(raw))
        guard let id else {
            report(.badValue, "\"\(scanner.decodeString(raw).prefix(80))\" is not a UUID", scanner)
            return nil
        }
        return id
    }

    mutating func timestamp(_ scanner: inout JSONScanner) throws -> Timestamp? {
        guard let text = try string(&scanner, maxScalars: ManifestRules.maxTimestampScalars) else { return nil }
        guard let time = Timestamp(rfc3339: text) else {
            report(.badValue, "\"\(text)\" is not an RFC 3339 date-time", scanner)
            return nil
        }
        return time
    }

    mutating func integer(_ scanner: inout JSONScanner, in range: ClosedRange<Int64>) throws -> Int64? {
        guard try expectKind(.number, &scanner, "an integer") else { return nil }
        switch try scanner.readNumber() {
        case .integer(let value) where range.contains(value):
            return value
        case .integer(let value):
            report(.badValue, "\(value) is outside \(range.lowerBound)...\(range.upperBound)", scanner)
        case .other(let value):
            report(.badValue, "\(value) is not an integer in \(range.lowerBound)...\(range.upperBound)", scanner)
        }
        return nil
    }

    private static func describe(_ kind: JSONScanner.Kind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
