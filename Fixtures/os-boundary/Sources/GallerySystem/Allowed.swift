// Planted for OSBoundaryCheckTests: the same calls as SomeModule/Planted.swift, in the one
// module allowed them.
import Foundation
import Glibc
import func Glibc.memcmp

func planted(_ p: String) {
    try? FileManager.default.removeItem(atPath: p)
    let data = try? Data(contentsOf: URL(fileURLWithPath: p))
    _ = "FileManager.default.removeItem(atPath:) in a string is not a call, \(getpid()) in its interpolation is"
    setenv("NAME", "value", 1)
    _ = data
}
