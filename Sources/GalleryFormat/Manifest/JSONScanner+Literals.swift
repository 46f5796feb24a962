/// The literals `true`, `false` and `null`.
extension JSONScanner {
    /// Reads `true` or `false`.
    package mutating func readBool() throws -> Bool {
        try skipWhitespace()
        if try matchLiteral("true") { return true }
        if try matchLiteral("false") { return false }
        throw error(.jsonSyntax, "invalid literal")
    }

    /// Reads `null`.
    package mutating func readNull() throws {
        try skipWhitespace()
        guard try matchLiteral("null") else { throw error(.jsonSyntax, "invalid literal") }
    }

    private mutating func matchLiteral(_ literal: StaticString) throws -> Bool {
        let count = literal.utf8CodeUnitCount
        guard try available(count) else { return false }
        for i in 0 ..< count where bytes[position + i] != literal.utf8Start[i] { return false }
        position += count
        return true
    }
}
