// Planted for OSBoundaryCheckTests: every call below is an OS call outside GallerySystem, each
// on a line the test names; the comment and the string literals hold some that are not calls.
import Foundation
import Glibc
import func Glibc.memcmp

func planted(_ p: String) {
    try? FileManager.default.removeItem(atPath: p)
    let data = try? Data(contentsOf: URL(fileURLWithPath: p))
    _ = "FileManager.default.removeItem(atPath:) in a string is not a call, \(getpid()) in its interpolation is"
    setenv("NAME", "value", 1)
    _ = data
    let stamp = (Date(), ProcessInfo.processInfo.hostName, "Date() in a string is not a call")
    _ = (stamp, Date(timeIntervalSince1970: 0), ContinuousClock.now)
}
