/// RFC 6901 pointers.
enum JSONPointer {
    static func render(_ tokens: [String]) -> String {
        var out = ""
        for token in tokens {
            out += "/"
            for character in token {
                switch character {
                case "~": out += "~0"
                case "/": out += "~1"
                default: out.append(character)
                }
            }
        }
        return out
    }
}
