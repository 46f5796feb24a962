import Foundation
import GalleryTestSupport
import Testing

/// Every command that reads input, over the committed hostile corpus (`Fixtures/hostile`, written
/// by `scripts/make-hostile-corpus.py --fixtures`): `scripts/check-hostile-commands.py` runs
/// validate, info, list, extract, thumbnail and convert on each of its files, each run in an empty
/// workspace with its own HOME and TMPDIR, under RLIMIT_AS 256 MiB and RLIMIT_CPU. It checks
/// that no run crashes or hangs, that each ends with an exit code the README gives it and a
/// message naming the file, peak memory under 256 MB, the outputs (a thumbnail is a PNG, a
/// converted gallery is valid, foreign archives give what expected.json says), and that nothing
/// is written outside the named output, the input included. The release binary that `make test`
/// builds (IMAGEGALLERY_STATIC_BINARY; without it the test fails): the bounds are the shipped
/// build's. About 7,200 runs: 2 to 4 minutes on 2 cores. The bound on work is CPU time: 2 s for
/// thumbnail and the thumbnailer (no input may cost a thumbnail path more), 10 s for the rest
/// (extract's grows with the files it writes). The wall clock only catches hangs (300 s): CI's
/// machine, busy with the other suites, took 10.2 s of wall time to list the 100,000-image
/// manifest, which is not the input's fault. The runs are niced (10): they are batch work whose
/// verdicts count CPU time, and at normal priority their two suites' four busy processes starved
/// the browser checks on CI's 2 cores until a drop waited out its 120 s. Niced, a run that may
/// cost its whole 10 s of CPU can wait far longer than that for it on a busy machine, which the
/// wall clock's bound leaves room for.
@Suite("Hostile corpus: every command")
struct HostileCorpusTests {
    @Test func everyCommandEndsEveryFileCleanly() async throws {
        try await Self.check(TestPaths.fixture("hostile"), scratch: try TemporaryDirectory())
    }

    /// The rest of the full corpus: the files Fixtures/hostile leaves out for their size (about
    /// 18, 54 MB: 100,000-image manifests, 200,001 entries, LZW bombs, the GIFs whose decode
    /// costs seconds), written for the run by `make-hostile-corpus.py --large` (about a minute),
    /// then every command over each, as above: about 150 runs, 3 minutes on 2 cores, most of it
    /// extract writing 100,000 files.
    @Test func everyCommandEndsTheLargeFilesCleanly() async throws {
        let scratch = try TemporaryDirectory()
        let corpus = scratch.file("large")
        let written = try await Blocking.run {
            try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/make-hostile-corpus.py", corpus, "--large"])
        }
        try #require(written.status == 0, "make-hostile-corpus.py --large failed: \(written.stderr)")
        try await Self.check(corpus, scratch: scratch)
    }

    /// Runs check-hostile-commands.py over `corpus` with the release binary, as the suite's
    /// comment says, and expects no problem.
    static func check(_ corpus: String, scratch: TemporaryDirectory) async throws {
        let binary = try TestPaths.staticBinary()
        let report = scratch.file("report.json")
        let arguments = ["-n", "10", "/usr/bin/python3", TestPaths.repository + "/scripts/check-hostile-commands.py", corpus,
                         "--binary", binary, "--jobs", "2", "--timeout", "300", "--max-cpu-s", "10", "--max-as-mb", "256",
                         "--max-rss-mb", "256", "--json", report]
        let result = try await Blocking.run { try Subprocess.run("/usr/bin/nice", arguments) }
        // The script prints its summary first, then every problem with the file and its stderr.
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let shown = lines.prefix(300).joined(separator: "\n") + (lines.count > 300 ? "\n… (\(report))" : "")
        #expect(result.status == 0, "check-hostile-commands.py failed:\n\(shown)\n\(result.stderr)")
    }
}
