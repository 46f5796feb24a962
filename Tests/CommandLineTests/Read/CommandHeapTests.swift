import Foundation
import GalleryTestSupport
import Testing

/// `imagegallery` grows malloc's heap in memory the kernel may back with 2 MiB pages before
/// its command starts (`AddressSpace.growHeapInHugePages`): opening 10,000 photos then takes
/// about 500 page faults instead of 2,500.
@Suite("The command's heap")
struct CommandHeapTests {
    static let hugePages: String? = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8))
        .flatMap { setting in setting.split(separator: " ").first { $0.hasPrefix("[") } }
        .map { String($0.dropFirst().dropLast()) }

    /// Seen in a running command: `validate -` waits on standard input, long after `main` began.
    @Test(.enabled(if: hugePages == "madvise" || hugePages == "always", "transparent huge pages are off here"))
    func aRunningCommandsHeapMayHoldHugePages() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestPaths.binary())
        process.arguments = ["validate", "-"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        // Its main thread reading file descriptor 0: syscall 0 (read), first argument 0.
        let deadline = Date().addingTimeInterval(30)
        while (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/syscall", encoding: .utf8))?.hasPrefix("0 0x0 ") != true {
            try #require(Date() < deadline && process.isRunning, "validate - never waited on standard input")
            usleep(10_000)
        }
        // Read to its end: a /proc file reports no size, and one read gives a page of it.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/smaps"))
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var heap = false
        var advised: [String] = []
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                heap = fields.last == "[heap]"
                if heap { advised.append(String(range)) }
            } else if heap, fields.first == "THPeligible:", fields.last != "1" {
                advised.removeLast()
            }
        }
        // The reserve of 64 MiB, less the huge pages the heap's start shares with small ones.
        #expect(!advised.isEmpty, "no part of the heap may hold huge pages")
        let bytes = advised.map { range -> UInt in
            let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
            return bounds.count == 2 ? bounds[1] - bounds[0] : 0
        }.reduce(0, +)
        #expect(bytes >= 56 << 20, "\(advised)")
    }
}
