import FoundationEssentials

/// Unknown members, read into values so that a save writes them again (section 8), within a
/// budget: the manifest may be 64 MiB of one unknown array, which as values would take ten
/// times that.
extension ManifestDecoder {
    /// What the kept members of one manifest may cost together: their text, plus 32 bytes for
    /// every value. Past it a member is ignored, and said to be.
    static let keptBudget = 4 << 20

    /// Reads an unknown member's value and keeps it, or skips it when keeping is off or the
    /// budget is spent; reports it either way (IG-MAN-013).
    mutating func keepUnknown(_ key: JSONScanner.RawString, _ scanner: inout JSONScanner, into kept: inout [ManifestMember]) throws {
        let name = scanner.decodeString(key)
        guard keepsText, keptSpent < Self.keptBudget else {
            report(.unknownMember, "unknown member \"\(name)\" is ignored"
                   + (keepsText ? ", and not kept: the manifest's unknown members pass \(Self.keptBudget >> 20) MiB" : ""),
                   scanner)
            try scanner.skipValue()
            return
        }
        keptSpent += 32 + name.utf8.count
        // One finding per member, said once its value is read: kept, or past the budget.
        if let value = try keptValue(&scanner) {
            kept.append(ManifestMember(name: name, value: value))
            report(.unknownMember, "unknown member \"\(name)\" is ignored, and kept as it is when the gallery is saved", scanner)
        } else {
            report(.unknownMember, "unknown member \"\(name)\" is not kept: the manifest's unknown members pass "
                   + "\(Self.keptBudget >> 20) MiB", scanner)
        }
    }

    /// One value, or nil when the budget ran out inside it (the rest of it is still read, and
    /// checked, so the reading goes on after it).
    private mutating func keptValue(_ scanner: inout JSONScanner) throws -> ManifestValue? {
        guard keptSpent < Self.keptBudget else { try scanner.skipValue(); return nil }
        keptSpent += 32
        let value = try readKept(&scanner)
        return keptSpent <= Self.keptBudget ? value : nil
    }

    private mutating func readKept(_ scanner: inout JSONScanner) throws -> ManifestValue? {
        switch try scanner.peekKind() {
        case .string:
            let text = scanner.decodeString(try scanner.readRawString())
            keptSpent += text.utf8.count
            return .string(text)
        case .number:
            let text = try scanner.readNumberText()
            keptSpent += text.utf8.count
            return .number(text)
        case .bool: return .bool(try scanner.readBool())
        case .null:
            try scanner.readNull()
            return .null
        case .array:
            var elements: [ManifestValue] = []
            var whole = true
            try scanner.readArray { scanner, _ in
                if let element = try keptValue(&scanner) { elements.append(element) } else { whole = false }
            }
            return whole ? .array(elements) : nil
        case .object:
            var members: [ManifestMember] = []
            var whole = true
            try scanner.readObject(checkDuplicates: true) { scanner, key in
                let name = scanner.decodeString(key)
                keptSpent += name.utf8.count
                if let value = try keptValue(&scanner) { members.append(ManifestMember(name: name, value: value)) } else { whole = false }
            }
            return whole ? .object(members) : nil
        }
    }
}
