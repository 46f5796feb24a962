import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Archives written to attack an importer. Each is made here with Python's tarfile and
/// zipfile, which write what they are told, and converted from inside a folder of the
/// workspace, so that any escape would land where the test looks.
@Suite("Conversion: hostile archives")
struct ConvertHostileArchiveTests {
    /// Writes an archive with Python: `members` are (name, kind, payload) with kind file,
    /// symlink or hardlink; payload a fixture image name, `zeros:N` or a link target.
    static func make(_ path: String, format: String, members: [(String, String, String)]) async throws {
        let script = """
            import io, sys, tarfile, zipfile, json
            path, fmt, members = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
            def data(payload):
                if payload.startswith("zeros:"):
                    return b"\\0" * int(payload[6:])
                with open(payload, "rb") as f:
                    return f.read()
            if fmt == "zip":
                with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
                    for name, kind, payload in members:
                        info = zipfile.ZipInfo(name)
                        info.compress_type = zipfile.ZIP_DEFLATED
                        z.writestr(info, data(payload))
            else:
                with tarfile.open(path, "w:" + fmt, format=tarfile.GNU_FORMAT) as t:
                    for name, kind, payload in members:
                        info = tarfile.TarInfo(name)
                        if kind == "file":
                            body = data(payload)
                            info.size = len(body)
                            t.addfile(info, io.BytesIO(body))
                        else:
                            info.type = tarfile.SYMTYPE if kind == "symlink" else tarfile.LNKTYPE
                            info.linkname = payload
                            t.addfile(info)
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: members.map { [$0.0, $0.1, $0.2] }), as: UTF8.self)
        let result = try await Blocking.run { try Subprocess.run("/usr/bin/python3", ["-c", script, path, format, json]) }
        #expect(result.status == 0, "\(result.stderr)")
    }

    static let image = TestPaths.fixture("images/1-sunset.jpg")

    @Test(arguments: ["gz", "zip"])
    func unsafeNamesAndLinksAreSkippedAndNothingEscapes(format: String) async throws {
        let workspace = try ConvertWorkspace()
        let inside = workspace.file("inside")
        try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: false)
        let absolute = "/tmp/imagegallery-absolute-\(UUID().uuidString).jpg"
        let archive = workspace.file("hostile.\(format == "zip" ? "zip" : "tar.gz")")
        var members: [(String, String, String)] = [
            ("../escape.jpg", "file", Self.image),
            ("a/../../escape2.jpg", "file", Self.image),
            // "/\u{301}" is one Character, so a Character-wise split saw no ".." here.
            ("../\u{301}escape3.jpg", "file", Self.image),
            (absolute, "file", Self.image),
            ("--checkpoint-action=exec=touch MARKER.jpg", "file", Self.image),
            ("good.jpg", "file", Self.image),
        ]
        if format != "zip" {
            members += [("link.jpg", "symlink", "/etc/passwd"), ("hard.jpg", "hardlink", "good.jpg"),
                        ("up.jpg", "symlink", "../../escape.jpg")]
        }
        try await Self.make(archive, format: format, members: members)
        let before = workspace.listing()
        let gallery = inside + "/out.imagegallery"
        let result = try await Blocking.run { try Subprocess.imagegallery(["convert", archive, "out.imagegallery", "--json"], in: inside) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.imageBytes(gallery) == [FileBytes.read(Self.image)])
        for (name, _, _) in members where name != "good.jpg" {
            #expect(result.stderr.contains(name), "no warning names \(name): \(result.stderr)")
        }
        #expect(workspace.listing().subtracting(before) == ["inside/out.imagegallery"])
        #expect(!FileManager.default.fileExists(atPath: absolute))
        #expect(!FileManager.default.fileExists(atPath: (workspace.directory.path as NSString).deletingLastPathComponent + "/escape.jpg"))
    }

    /// 200 MiB of zeros in a 200 KiB tar.gz: refused as a bomb once it expands a hundredfold
    /// past the floor, long before it is all read; nothing written.
    @Test(arguments: ["gz", "zip"])
    func aDecompressionBombIsRefused(format: String) async throws {
        let workspace = try ConvertWorkspace()
        let archive = workspace.file("bomb.\(format == "zip" ? "zip" : "tar.gz")")
        try await Self.make(archive, format: format, members: [("a.jpg", "file", Self.image), ("zeros.bin", "file", "zeros:209715200")])
        let before = workspace.listing()
        let gallery = workspace.file("out.imagegallery")
        let (result, mebibytes) = try await Blocking.run {
            try Subprocess.imagegalleryPeakMemory(["convert", archive, gallery])
        }
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("bomb") && result.stderr.contains(archive), "\(result.stderr)")
        #expect(workspace.listing() == before, "\(workspace.listing().subtracting(before))")
        #expect(mebibytes < 256, "peak \(mebibytes) MiB")
    }

    /// An entry claiming more than the per-entry limit is refused before its data is read.
    @Test func aFileThatIsNotAnImageIsSkippedWhateverItsName() async throws {
        let workspace = try ConvertWorkspace()
        let archive = workspace.file("fake.tar.gz")
        let html = workspace.file("page.html")
        try FileBytes.write(Array("<html>not a picture</html>".utf8), to: html)
        try await Self.make(archive, format: "gz", members: [("cover.jpg", "file", html), ("1.jpg", "file", Self.image)])
        let gallery = workspace.file("out.imagegallery")
        let result = try await workspace.run(["convert", archive, gallery])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("cover.jpg: skipped: not a JPEG, PNG, WebP, GIF, AVIF or HEIC image"), "\(result.stderr)")
        #expect(try workspace.imageBytes(gallery).count == 1)
    }
}
