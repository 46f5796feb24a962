import ArgumentParser
import Foundation
import GalleryEditor
import GallerySystem

/// `imagegallery-editor`, which `imagegallery edit` becomes (see Sources/GalleryPrograms/
/// CompanionProgram.swift for why the server is a program of its own). Exit codes: 0 when it
/// stopped and every document was saved; 64 usage; 66 a path is not a folder or a gallery; 69 it
/// cannot listen; 74 a document's final save failed (the message names it).
@main
struct EditorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imagegallery-editor",
        abstract: "Edit galleries in the browser: the server behind `imagegallery edit`.",
        discussion: """
            Starts a local server for the galleries in PATH (folders or gallery files; the current \
            folder when none is given) and opens the browser on a one-time link. A second run on the \
            same paths opens another page on the running server. The server stops 30 seconds after \
            the last page closes, or on Ctrl+C, and saves every open gallery as it stops.
            """)

    @Argument(help: "Folders and gallery files to edit (default: the current folder).")
    var paths: [String] = []

    @Option(help: "The port on 127.0.0.1 and ::1 (default: a free one).")
    var port: Int = 0

    @Flag(help: "Print the link instead of opening the browser.")
    var noOpen = false

    @Flag(help: "Print {\"url\", \"pid\"} as JSON, for scripts.")
    var json = false

    @Option(help: "The largest file an import takes, in bytes; never more than the free space of the folder it goes to, less 1 GiB (default: 4 GiB).")
    var maxImportBytes: Int = EditorLimits().importBytes

    @Option(help: .hidden)
    var idleSeconds: Double = 30

    /// Seconds a page's galleries stay open after its event stream ends (a reload finds them).
    @Option(help: .hidden)
    var reloadGraceSeconds: Double = 15

    /// Seconds a request's body may stop arriving before its connection is closed.
    @Option(help: .hidden)
    var readTimeoutSeconds: Double = 300

    /// Bytes of free space an import leaves (tests set it near the free space).
    @Option(help: .hidden)
    var importFreeSpaceMargin: Int = EditorLimits().freeSpaceMargin

    @Option(help: .hidden)
    var firstPageSeconds: Double = 300

    @Option(help: .hidden)
    var autosaveSeconds: Double = 2

    func validate() throws {
        guard (0 ... 65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard idleSeconds >= 0, firstPageSeconds >= 0, autosaveSeconds > 0, reloadGraceSeconds >= 0, readTimeoutSeconds > 0 else {
            throw ValidationError("durations must be positive")
        }
        guard maxImportBytes > 0, importFreeSpaceMargin >= 0 else { throw ValidationError("--max-import-bytes must be positive") }
    }

    func run() async throws {
        // A server of bursts (a save of a large gallery): each burst's memory goes back after it.
        AddressSpace.returnFreedMemoryPromptly()
        let roots: EditorRoots
        do {
            roots = try EditorRoots(paths: paths.isEmpty ? ["."] : paths)
        } catch {
            Self.fail("\(error)", status: 66)
        }
        if let running = EditorRecord.running(for: roots), port == 0 || port == running.port, let url = running.launchURL() {
            announce(url: url, pid: running.pid)
            return
        }
        var configuration = EditorServer.Configuration(roots: roots)
        configuration.port = port
        configuration.idleShutdown = .milliseconds(Int(idleSeconds * 1000))
        configuration.firstPageWait = .milliseconds(Int(firstPageSeconds * 1000))
        configuration.documentOptions.autosaveIdle = .milliseconds(Int(autosaveSeconds * 1000))
        configuration.reloadGrace = .milliseconds(Int(reloadGraceSeconds * 1000))
        configuration.limits.readTimeout = .milliseconds(Int(readTimeoutSeconds * 1000))
        configuration.limits.importBytes = maxImportBytes
        configuration.limits.freeSpaceMargin = importFreeSpaceMargin
        let failures: [String]
        do {
            failures = try await EditorServer.run(configuration) { url in announce(url: url, pid: .current) }
        } catch {
            Self.fail("cannot serve the editor: \(error)", status: 69)
        }
        for failure in failures { Self.message("not saved: \(failure)") }
        if !failures.isEmpty { throw ExitCode(74) }
    }

    /// Prints the link (or the JSON) and opens the browser unless asked not to.
    func announce(url: String, pid: ProcessID) {
        if json {
            let object: [String: Any] = ["url": url, "pid": Int(pid.rawValue)]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            StandardStream.output.write(Array(data) + Array("\n".utf8))
        } else {
            StandardStream.output.write("\(url)\n")
        }
        guard !noOpen else { return }
        do throws(FileSystemError) {
            // Not waited for here: the browser may keep xdg-open as long as it likes. Its words
            // (and those of whatever xdg-open starts) stay out of the editor's output.
            try ChildProcess("/usr/bin/env", arguments: ["xdg-open", url], output: .nothing, error: .nothing)
                .waitInBackground()
        } catch {
            Self.message("cannot open the browser (\(error.reason)); open the link above")
        }
    }

    static func message(_ text: String) {
        StandardStream.error.write("imagegallery-editor: \(text)\n")
    }

    static func fail(_ text: String, status: Int32) -> Never {
        message(text)
        CurrentProcess.exit(status)
    }
}
