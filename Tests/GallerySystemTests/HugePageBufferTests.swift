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
        #expect(Self.hugePageEligibility(at: UInt(bitPattern: buffer.bytes.baseAddress)) == "1")
    }

    /// The THPeligible field of the mapping that holds `address`, in /proc/self/smaps.
    static func hugePageEligibility(at address: UInt) -> String? {
        // Read to its end: a /proc file reports no size, and one read gives a page of it.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        // Each mapping's block: its address range, then its fields.
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
        return eligible
    }

    @Test func anImpossibleSizeIsRefused() {
        #expect(HugePageBuffer(count: 0) == nil)
        #expect(HugePageBuffer(count: Int.max) == nil)
    }
}

/// A command that runs and ends grows malloc's heap in huge pages (`growHeapInHugePages`; seen
/// in a running command by CommandHeapTests). It changes the whole process's allocator, so the
/// check runs in a process of its own.
@Suite("The heap in huge pages")
struct HeapHugePagesTests {
    @Test func underAnAddressSpaceLimitNothingChanges() async {
        await #expect(processExitsWith: .success) {
            var limit = rlimit(rlim_cur: 8 << 30, rlim_max: 8 << 30)
            guard setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 else { exit(1) }
            exit(AddressSpace.growHeapInHugePages() ? 2 : 0)
        }
    }
}
