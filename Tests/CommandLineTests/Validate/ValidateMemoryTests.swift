import Foundation
import GalleryTestSupport
import Testing

/// Peak memory of `validate` on the hostile fixtures, measured by GNU time on the real binary.
@Suite("imagegallery validate: memory")
struct ValidateMemoryTests {
    func peak(_ arguments: [String]) throws -> (status: Int32, mebibytes: Double) {
        let (result, mebibytes) = try Subprocess.imagegalleryPeakMemory(arguments)
        return (result.status, mebibytes)
    }

    /// Every invalid fixture at once, bombs included, decoding every image: well under 100 MB.
    @Test func everyInvalidFixtureWithinOneHundredMegabytes() throws {
        let run = try peak(["validate", "--deep", "--format", "json", TestPaths.fixture("invalid")])
        #expect(run.status == 1)
        #expect(run.mebibytes < 100, "peak \(run.mebibytes) MiB")
    }

    /// A 120-megapixel PNG decoded row by row: its 480 MB of RGBA never exist at once, so it
    /// is within the limits (which bound what a decode holds) and within 50 MiB.
    @Test func aHugePNGIsDecodedInRowsOfMemory() throws {
        let directory = try TemporaryDirectory()
        let png = directory.file("huge.png")
        // 12000×10000 1-bit greyscale, all black: about 150 kB.
        let script = """
            import struct, zlib
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
            raw = (b'\\x00' + b'\\x00' * 1500) * 10000
            data = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 12000, 10000, 1, 0, 0, 0, 0))
            data += chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
            open('\(png)', 'wb').write(data)
            """
        #expect(try Subprocess.run("/usr/bin/python3", ["-c", script]).status == 0)
        let path = directory.file("huge.imagegallery")
        let created = try Subprocess.run(try TestPaths.staticBinary(), ["create", path, png])
        #expect(created.status == 0, "\(created.stderr)")
        let run = try peak(["validate", "--deep", path])
        #expect(run.status == 0)
        #expect(run.mebibytes < 50, "peak \(run.mebibytes) MiB")
    }
}
