import Foundation
@testable import GallerySystem
import Testing

/// A manifest inflated whole goes into memory of its own that the kernel may back with 2 MiB
/// pages: one fault for each instead of 512.
@Suite("Huge-page buffers")
struct HugePageBufferTests {
    /// The system's setting for transparent huge pages: "always", "madvise" or "never".
    static let hugePages: String? = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8))
        .flatMap { setting in setting.split(separator: " ").first { $0.hasPrefix("[") } }
        .map { String($0.dropFirst().dropLast()) }

    @Test func theBufferStartsOnAHugePageAndHoldsWhatIsWritten() throws {
        let buffer = try #require(HugePageBuffer(count: 3_728_659))
        #expect(buffer.bytes.count == 3_728_659)
        #expect(Int(bitPattern: buffer.bytes.baseAddress) % (2 << 20) == 0)
        buffer.bytes.initializeMemory(as: UInt8.self, repeating: 0xA5)
        #expect(buffer.bytes.allSatisfy { $0 == 0xA5 })
    }

    @Test(.enabled(if: hugePages == "madvise" || hugePages == "always", "transparent huge pages are off here"))
    func theKernelMayBackItWithHugePages() throws {
        let buffer = try #require(HugePageBuffer(count: 4 << 20))
        let address = UInt(bitPattern: buffer.bytes.baseAddress)
        // The mapping's block in smaps: its address range, then its fields.
        // Read to its end: a /proc file reports no size, and one read gives a page of it.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var inside = false
        var eligible: String?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "THPeligible:" {
                eligible = fields.last.map(String.init)
            }
        }
        #expect(eligible == "1")
    }

    @Test func anImpossibleSizeIsRefused() {
        #expect(HugePageBuffer(count: 0) == nil)
        #expect(HugePageBuffer(count: Int.max) == nil)
    }
}
