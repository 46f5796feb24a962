import Foundation
import GalleryTestSupport
import Testing

/// GallerySystem is the only module that talks to the operating system; scripts/check-os-boundary
/// says so of the sources, and these tests say the check holds and sees what it must.
@Suite("The OS boundary check")
struct OSBoundaryCheckTests {
    static let script = TestPaths.repository + "/scripts/check-os-boundary"

    static func check(root: String? = nil) throws -> ProcessResult {
        try Subprocess.run("/usr/bin/python3", [script] + (root.map { ["--root", $0] } ?? []))
    }

    @Test func noModuleButGallerySystemCallsTheOperatingSystem() throws {
        let result = try Self.check()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func plantedCallsAreNamedOutsideGallerySystemOnly() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: TestPaths.fixture("os-boundary/Sources"), toPath: folder.file("Sources"))
        let result = try Self.check(root: folder.path)
        #expect(result.status == 1, "\(result.stderr)")
        let planted = "Sources/SomeModule/Planted.swift"
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(planted):4: import Glibc — imports the C library",
            "\(planted):8: FileManager — Foundation's file manager",
            "\(planted):9: Data(contentsOf: — Foundation reads a file",
            "\(planted):10: getpid() — a libc call on processes",
            "\(planted):11: setenv( — the process's environment",
            "\(planted):13: Date() — reads the time of day (Foundation)",
            "\(planted):13: ProcessInfo.processInfo.hostName — asks the system about the machine",
        ])
        #expect(!result.stdout.contains("GallerySystem"))
        #expect(result.stderr.contains("7 calls to the operating system"))
    }

    @Test func aRootWithoutSourcesIsAUsageError() throws {
        let folder = try TemporaryDirectory()
        #expect(try Self.check(root: folder.path).status == 2)
    }
}
