import Foundation

/// A program or fixture folder the tests need is not there: the test fails with this message.
public struct MissingTestInput: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}
