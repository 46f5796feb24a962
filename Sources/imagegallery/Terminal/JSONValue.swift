import FoundationEssentials

/// A JSON document built by hand, for a report whose shape is another tool's (SARIF) rather
/// than one of our Codable types. Encoded by JSONEncoder, so keys are sorted as everywhere else.
enum JSONValue: Encodable, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral,
                ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case string(String)
    case integer(Int)
    case array([JSONValue])
    case object([String: JSONValue])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
