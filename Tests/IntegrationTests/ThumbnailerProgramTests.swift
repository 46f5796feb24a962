import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// imagegallery-thumbnailer, the program the thumbnailer entry runs: the same thumbnails as
/// `imagegallery thumbnail`, and a confinement seen from outside the process (its hidden probe,
/// strace, address-space limits), never taken on trust from the code.
@Suite("Thumbnailer program")
struct ThumbnailerProgramTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// One gallery per sample image: JPEG and PNG, and every format 2.0 type. At 1024 pixels
    /// the first image is decoded (its embedded thumbnail is smaller), at 128 it is not.
    func galleries() async throws -> [String] {
        let images = ["images/1-sunset.jpg", "images/6-bubbles.png", "format-2.0/lossy.webp", "format-2.0/anim.gif",
                      "format-2.0/sunset.avif", "format-2.0/sunset.heic", "format-2.0/rotated.avif"]
        var galleries: [String] = []
        for image in images.map({ TestPaths.repository + "/Fixtures/" + $0 }) + [try profiledPhoto().path] {
            let gallery = directory.file((image as NSString).lastPathComponent + ".imagegallery")
            let made = try await Subprocess.imagegalleryBlocking(["create", gallery, image])
            try #require(made.status == 0, "\(image): \(made.stderr)")
            galleries.append(gallery)
        }
        return galleries
    }

    /// A photo tagged with ProPhoto RGB (colord's profile), whose left half holds the numbers
    /// (150, 91, 61); Little CMS through Pillow's ImageCms gives the sRGB colour returned.
    func profiledPhoto() throws -> (path: String, sRGB: [Int]) {
        let made = try Subprocess.run("/usr/bin/python3", ["-c", """
            import sys
            from PIL import Image, ImageCms
            profile = "/usr/share/color/icc/colord/ProPhotoRGB.icc"
            image = Image.new("RGB", (1600, 1200), (150, 91, 61))
            image.paste((60, 120, 200), (800, 0, 1600, 1200))
            image.save(sys.argv[1], quality=95, icc_profile=open(profile, "rb").read())
            one = ImageCms.profileToProfile(Image.new("RGB", (1, 1), (150, 91, 61)), profile, ImageCms.createProfile("sRGB"),
                                            renderingIntent=1)
            print(*one.getpixel((0, 0)))
            """, directory.file("prophoto.jpg")])
        try #require(made.status == 0, "Pillow could not make the profiled photo: \(made.stderr)")
        return (directory.file("prophoto.jpg"), made.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    }

    /// Confined, the program still converts a profiled photo to sRGB: Little CMS is loaded
    /// before the filter that forbids opening files (at 1024 px the photo is decoded; the
    /// strace test below counts the opens).
    @Test func aProfiledPhotoComesOutInSRGBOnceConfined() async throws {
        let photo = try profiledPhoto()
        let gallery = directory.file("profiled.imagegallery")
        let made = try await Subprocess.imagegalleryBlocking(["create", gallery, photo.path])
        try #require(made.status == 0 && photo.sRGB.count == 3, "\(made.stderr)")
        let output = directory.file("profiled.png")
        let run = try await Subprocess.runBlocking(try TestPaths.thumbnailer(), ["-s", "1024", gallery, output])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let bitmap = try PNGDecoder.decode(FileBytes.read(output))
        let left = Array(bitmap.pixels[(100 * bitmap.width + 100) * 4 ..< (100 * bitmap.width + 100) * 4 + 3]).map(Int.init)
        // Read as sRGB, the numbers (150, 91, 61) would be another colour: ΔE2000 over 10.
        #expect(ColourDifference.ciede2000([150, 91, 61], photo.sRGB) > 10)
        #expect(ColourDifference.ciede2000(left, photo.sRGB) <= 1.0, "\(left) against \(photo.sRGB)")
    }

    /// The same pixels; the program's PNG is stored rather than deflated, since the desktop
    /// decodes it at once and saves its own (Bitmap.handOffPNG()).
    @Test func itsThumbnailsAreTheThumbnailCommandsPixelForPixel() async throws {
        let thumbnailer = try TestPaths.thumbnailer()
        for gallery in try await galleries() + [TestPaths.repository + "/Fixtures/valid/all.imagegallery"] {
            for size in ["128", "1024"] {
                let ours = directory.file("ours.png"), theirs = directory.file("theirs.png")
                let run = try await Subprocess.runBlocking(thumbnailer, ["-s", size, gallery, ours])
                #expect(run.status == 0, "\(gallery) at \(size): \(run.stderr)")
                #expect(run.stderr.isEmpty, "\(gallery): \(run.stderr)")
                let reference = try await Subprocess.imagegalleryBlocking(["thumbnail", "-s", size, gallery, theirs])
                try #require(reference.status == 0, "\(reference.stderr)")
                let oursBytes = try FileBytes.read(ours), theirsBytes = try FileBytes.read(theirs)
                #expect(try PNGDecoder.decode(oursBytes) == (try PNGDecoder.decode(theirsBytes)), "\(gallery) at \(size)")
                #expect(oursBytes.count > theirsBytes.count, "\(gallery) at \(size): the hand-off PNG is stored")
            }
        }
    }

    @Test func onceConfinedNothingElseCanBeOpenedConnectedOrRun() async throws {
        let output = directory.file("probe.png")
        FileManager.default.createFile(atPath: output, contents: Data())
        let run = try await Subprocess.runBlocking(try TestPaths.thumbnailer(),
                                     ["--probe-confinement", TestPaths.repository + "/Fixtures/valid/all.imagegallery", output])
        try #require(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 10, "\(run.stdout)")
        for line in lines {
            #expect(!line.hasSuffix(": allowed"), "\(line)")
        }
        // Landlock alone (the filter still allows openat) refuses the files: EACCES, not the
        // filter's EPERM. On a kernel without Landlock the program says so instead.
        if run.stderr.contains("no Landlock") {
            Issue.record("this kernel has no Landlock: the file wall was not seen (\(run.stderr))")
        } else {
            #expect(lines.contains("files: open /etc/passwd: Permission denied"), "\(run.stdout)")
            #expect(lines.contains { $0.hasPrefix("files: create ") && $0.hasSuffix(": Permission denied") }, "\(run.stdout)")
        }
        #expect(lines.contains("calls: open /etc/passwd: Operation not permitted"), "\(run.stdout)")
        #expect(lines.contains("calls: exec /bin/true: Operation not permitted"), "\(run.stdout)")
        #expect(lines.contains("calls: connect 127.0.0.1:9: Operation not permitted"), "\(run.stdout)")
        #expect(lines.contains("calls: fork: Operation not permitted"), "\(run.stdout)")
    }

    /// On a kernel without Landlock (made here by a filter that answers its calls with ENOSYS,
    /// as such a kernel does) the thumbnail is still made, the files are not walled, a note
    /// says so, and the call filter still refuses everything it refuses elsewhere.
    @Test func withoutLandlockItSaysSoAndTheFilterStillHolds() async throws {
        let thumbnailer = try TestPaths.thumbnailer()
        let wrapper = TestPaths.repository + "/Tests/DesktopClients/without-landlock.py"
        let gallery = TestPaths.repository + "/Fixtures/valid/all.imagegallery"
        let made = try await Subprocess.runBlocking(wrapper, [thumbnailer, "-s", "64", gallery, directory.file("plain.png")])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("note: this kernel has no Landlock"), "\(made.stderr)")
        #expect(try FileBytes.read(directory.file("plain.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]))

        let output = directory.file("probe.png")
        FileManager.default.createFile(atPath: output, contents: Data())
        let probe = try await Subprocess.runBlocking(wrapper, [thumbnailer, "--probe-confinement", gallery, output])
        let lines = probe.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("files: open /etc/passwd: allowed"), "no Landlock, so the first stage cannot wall files: \(probe.stdout)")
        #expect(lines.filter { $0.hasPrefix("calls: ") }.count == 5, "\(probe.stdout)")
        #expect(lines.filter { $0.hasPrefix("calls: ") }.allSatisfy { $0.hasSuffix(": Operation not permitted") }, "\(probe.stdout)")
    }

    /// The calls the seccomp filter allows (Sources/CGallerySystem/confinement.c and
    /// Specs/security.md), as strace names them.
    static let allowed: Set<String> = [
        "read", "pread64", "readv", "preadv", "write", "pwrite64", "writev", "lseek", "fstat", "newfstatat", "statx",
        "ftruncate", "fsync", "fdatasync", "close", "fcntl", "mmap", "munmap", "mremap", "mprotect", "brk", "madvise",
        "futex", "set_robust_list", "get_robust_list", "rseq", "set_tid_address", "sched_yield", "sched_getaffinity",
        "gettid", "getpid", "tgkill", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "clock_gettime",
        "clock_nanosleep", "nanosleep", "gettimeofday", "getrandom", "prlimit64", "getrlimit", "membarrier", "exit",
        "exit_group", "seccomp",
    ]

    @Test func straceShowsNoCallOutsideTheListOnceConfined() async throws {
        guard let strace = Subprocess.which("strace") else {
            Issue.record("strace is not installed (scripts/install-deps test installs it)")
            return
        }
        let thumbnailer = try TestPaths.thumbnailer()
        for gallery in try await galleries() {
            let trace = directory.file("trace.txt")
            let run = try await Subprocess.runBlocking(strace, ["-f", "-qq", "-o", trace, thumbnailer, "-s", "1024", gallery, directory.file("t.png")])
            #expect(run.status == 0, "\(gallery): \(run.stderr)")
            let lines = String(decoding: try FileBytes.read(trace), as: UTF8.self).split(separator: "\n")
            let filtered = try #require(lines.firstIndex { $0.contains("seccomp(SECCOMP_SET_MODE_FILTER") && $0.hasSuffix("= 0") },
                                        "\(gallery): no filter was installed")
            var opensAfterSecondFilter = 0
            var filters = 0
            let traced = Array(lines[filtered...])
            // When it creates OUTPUT, the program started by strace forks the confined child and
            // only waits for it: its wait4 may come after the child's filter on a busy machine,
            // and is not the child's. (Given an OUTPUT that exists, it confines itself.)
            let pid = { (line: Substring?) in line?.firstMatch(of: /^(\d+)\s/)?.1 }
            let parent = pid(lines.first) != pid(lines[filtered]) ? pid(lines.first) : nil
            /// A call's whole line: with -f, strace may split one around another thread's call
            /// ("<unfinished ...>", then "PID <... NAME resumed> ... = RESULT"). strace pads the
            /// PID to five columns, so a PID of four digits or fewer is followed by more than one
            /// space (CI's small PIDs once failed a match that allowed one).
            func completed(_ index: Int, pid: Substring, name: Substring) -> Substring {
                let line = traced[index]
                guard line.hasSuffix("<unfinished ...>") else { return line }
                func resumes(_ other: Substring) -> Bool {
                    guard other.hasPrefix(pid) else { return false }
                    let rest = other.dropFirst(pid.count)
                    return rest.first == " " && rest.drop(while: { $0 == " " }).hasPrefix("<... \(name) resumed>")
                }
                return traced[(index + 1)...].first(where: resumes).map { line + " " + $0 } ?? line
            }
            for (index, line) in traced.enumerated() {
                guard let match = line.firstMatch(of: /^(\d+)\s+([a-z0-9_]+)\(/) else { continue }
                let (pid, name) = (match.1, match.2)
                if pid == parent { continue }
                if name == "seccomp" { filters += 1 }
                #expect(!["socket", "connect", "execve", "execveat", "fork", "vfork", "ptrace", "bind"].contains(String(name)),
                        "\(gallery): \(line)")
                if name == "clone" {
                    #expect(line.contains("CLONE_THREAD"), "a clone that is not a thread: \(line)")
                } else if name == "clone3" {
                    #expect(completed(index, pid: pid, name: name).hasSuffix("= -1 ENOSYS (Function not implemented)"), "\(line)")
                } else if name == "openat" {
                    // Before the second filter Landlock holds opens to the library folders.
                    if filters >= 2 { opensAfterSecondFilter += 1 }
                } else if !Self.allowed.contains(String(name)) {
                    // A library may try a call the filter refuses; it must have been refused.
                    #expect(completed(index, pid: pid, name: name).contains("= -1 EPERM"),
                            "\(gallery): a call outside the list ran: \(line)")
                }
            }
            #expect(filters == 2, "\(gallery): \(filters) filters")
            #expect(opensAfterSecondFilter == 0, "\(gallery): an open after the second filter")
        }
    }

    @Test func underAnyAddressSpaceLimitItThumbnailsOrRefusesCleanly() async throws {
        let thumbnailer = try TestPaths.thumbnailer()
        let heic = try await galleries().first { $0.hasSuffix("sunset.heic.imagegallery") }!
        for mebibytes in [32, 48, 64, 96, 128, 192, 256] {
            for (gallery, size) in [(TestPaths.repository + "/Fixtures/valid/all.imagegallery", "256"), (heic, "1024")] {
                let output = directory.file("limited.png")
                let run = try await Subprocess.runBlocking("/bin/sh", ["-c", "ulimit -v \(mebibytes << 10) && exec \"$0\" -s \(size) \"$1\" \"$2\"",
                                                         thumbnailer, gallery, output])
                // 0 with a PNG, or a refusal with its reason: never a signal (128+) or a silent failure.
                #expect([0, 65, 71].contains(run.status), "\(mebibytes) MiB, \(gallery): \(run.status) \(run.stderr)")
                if run.status == 0 {
                    #expect(try FileBytes.read(output).starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(mebibytes) MiB")
                } else {
                    #expect(run.stderr.hasPrefix("imagegallery-thumbnailer: "), "\(mebibytes) MiB: \(run.stderr)")
                }
            }
        }
    }

    @Test func failuresNameTheFileAndKeepAnExistingOutput() async throws {
        let thumbnailer = try TestPaths.thumbnailer()
        let output = directory.file("kept.png")
        try Data("what was there".utf8).write(to: URL(fileURLWithPath: output))
        let notAGallery = directory.file("not.imagegallery")
        try Data("PK but not really".utf8).write(to: URL(fileURLWithPath: notAGallery))

        let broken = try await Subprocess.runBlocking(thumbnailer, ["-s", "64", notAGallery, output])
        #expect(broken.status == 65)
        #expect(broken.stderr.contains(notAGallery), "\(broken.stderr)")
        #expect(String(decoding: try FileBytes.read(output), as: UTF8.self) == "what was there")

        let missing = try await Subprocess.runBlocking(thumbnailer, ["-s", "64", directory.file("none.imagegallery"), output])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("none.imagegallery"), "\(missing.stderr)")

        let unwritable = try await Subprocess.runBlocking(thumbnailer, [TestPaths.repository + "/Fixtures/valid/all.imagegallery",
                                                          directory.file("no/such/folder.png")])
        #expect(unwritable.status == 73, "\(unwritable.stderr)")

        for arguments in [["-s", "0", "a", "b"], ["-s", "+5", "a", "b"], ["a"], ["--frobnicate", "a", "b"]] {
            let usage = try await Subprocess.runBlocking(thumbnailer, arguments)
            #expect(usage.status == 64, "\(arguments)")
            #expect(usage.stderr.contains("usage: imagegallery-thumbnailer"), "\(arguments)")
        }
        let version = try await Subprocess.runBlocking(thumbnailer, ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("imagegallery-thumbnailer "))
    }
}
