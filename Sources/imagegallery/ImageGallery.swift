import ArgumentParser
import FoundationEssentials
import GalleryFormat
import GallerySystem

@main
struct ImageGallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imagegallery",
        abstract: "Create, inspect, edit and unpack .imagegallery documents.",
        discussion: """
            EXIT CODES
              0   success
              1   internal error (a bug: please report it)
              3   an edit was kept as a version only (someone else had changed the file), or
                  a merge kept our side where both sides changed something
              4   add/create: some images could not be fetched; the others were added
              5   add/create: no image could be fetched; nothing was written
              64  usage error (bad option, unknown image index or id)
              65  invalid input data (not a valid gallery, not a JPEG/PNG image)
              66  an input file is missing or unreadable
              69  URLs cannot be fetched: the helper imagegallery-fetch is missing or failed
              73  an output cannot be created (exists and --force not given, …)
              74  input/output error (disk full, read failure, …)
              75  another editor held the document for longer than --wait
            validate has its own codes for CI: 0 valid, 1 invalid, 2 usage or I/O problem.
            merge-driver follows git: 0 merged cleanly, 1 conflicts (the result is still valid).
            """,
        version: GalleryVersion.string,
        subcommands: [
            Create.self, Info.self, List.self, Extract.self, Validate.self, Thumbnail.self,
            Add.self, Remove.self, Move.self, Transfer.self, Rename.self, Caption.self, Cover.self,
            Strip.self, Versions.self, Resolve.self, MergeDriver.self, Textconv.self, Convert.self, View.self, Edit.self, Cache.self, Integrate.self,
        ]
    )

    /// As `AsyncParsableCommand.main()`, with two differences: a failure the command meets is
    /// printed as one line with its documented exit code (`CommandFailure.init(_:)`, the one
    /// place that maps errors to codes), and `validate` reports usage errors with
    /// `ErrorCategory.checkNotMade`'s 2, the code CI tools expect from a checker, instead of 64.
    static func main() async {
        // Before any thread starts: under `ulimit -v` or a sandbox's address-space limit, the
        // limit is for the work, not for malloc's per-thread reservations.
        AddressSpace.fitAllocatorToLimit()
        AddressSpace.growHeapInHugePages()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let line = Thumbnail.desktopLine(arguments) {
            do {
                try Thumbnail.write(size: line.size, of: line.input, to: line.output)
                return
            } catch {
                fail(error)
            }
        }
        var command: any ParsableCommand
        if let direct = parsedDirectly(arguments) {
            command = direct
        } else {
            do {
                command = try parseAsRoot(arguments)
            } catch {
                exitForUsage(error, arguments)
            }
        }
        do {
            // Commands that wait on the document layer are async; the others run here, on the
            // main thread, outside Swift's cooperative pool, where blocking for their own
            // Dispatch workers (validate reads entries on every core) would starve those workers.
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // The parser's own outcomes (help, a usage error found in `run`, an exit code) are
            // its to print; everything else the library or a command threw is a failure.
            if String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") { exitForUsage(error, arguments) }
            fail(error)
        }
    }

    /// The command that `arguments` name, parsed as a root of its own, or nil for anything the
    /// whole tree must see (help, a version, a completion script, a usage error, a command with
    /// subcommands): `parseAsRoot` then parses it again, and says what is wrong as it always did.
    /// The tree's parse checks every command's arguments for a completion-script request and
    /// builds each one's argument set by reflection, 2 ms before `info` of a 10,000-photo
    /// gallery had read a byte (Benchmarks/RESULTS.md, ac.3.8).
    private static func parsedDirectly(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first,
              let type = configuration.subcommands.first(where: { $0._commandName == name }),
              type.configuration.subcommands.isEmpty
        else { return nil }
        return try? type.parse(Array(arguments.dropFirst()))
    }

    /// Ends a command that succeeded with its answer printed, `held` still alive: the kernel
    /// takes back the whole address space at once, where releasing an open gallery of 10,000
    /// photos (its entries, names, records and indexes) object by object cost `info` and `list`
    /// 5 M instructions, about 1.5 ms, after the answer (Benchmarks/RESULTS.md, ac.3.2). Only
    /// for commands that hold nothing more to write: no file, lock or child waits on a
    /// deinitialiser (an editing command's document is closed first).
    static func succeed(holding held: AnyObject) -> Never {
        withExtendedLifetime(held) { CurrentProcess.exit(0) }
    }

    private static func fail(_ error: any Error) -> Never {
        let failure = CommandFailure(error)
        Terminal.error(failure.message)
        CurrentProcess.exit(failure.status)
    }

    private static func exitForUsage(_ error: any Error, _ arguments: [String]) -> Never {
        if arguments.first == "validate", exitCode(for: error) == .validationFailure {
            Terminal.writeError(fullMessage(for: error) + "\n")
            CurrentProcess.exit(ExitStatus.checkNotMade)
        }
        exit(withError: error)
    }
}
