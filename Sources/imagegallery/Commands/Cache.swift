import ArgumentParser
import FoundationEssentials
import GalleryPrograms

extension ImageGallery {
    struct Cache: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Show or empty the cache of fetched images.",
            discussion: "The cache lives in $XDG_CACHE_HOME/imagegallery (~/.cache/imagegallery by default).",
            subcommands: [Info.self, Clear.self])

        struct Info: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "info", abstract: "Where the cache is and what it holds.")
            @OptionGroup var output: OutputOptions

            func run() throws {
                let info = try Cache.summary(["cache", "info"], doing: "cannot read the cache")
                if output.json {
                    try Terminal.printJSON(info)
                } else {
                    print("""
                        folder:   \(info.directory)
                        entries:  \(info.entries)
                        size:     \(ByteCount.describe(UInt64(info.bytes))) of \(ByteCount.describe(UInt64(info.diskCapacity)))
                        """)
                }
            }
        }

        struct Clear: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every cached response.")
            @OptionGroup var output: OutputOptions

            func run() throws {
                let removed = try Cache.summary(["cache", "clear"], doing: "cannot clear the cache")
                if output.json {
                    try Terminal.printJSON(removed)
                } else {
                    print("removed \(removed.entries) entr\(removed.entries == 1 ? "y" : "ies"), "
                          + "\(ByteCount.describe(UInt64(removed.bytes))), from \(removed.directory)")
                }
            }
        }

        /// The cache is the fetch helper's: it answers with one summary line.
        static func summary(_ arguments: [String], doing what: String) throws -> CacheSummary {
            var summary: CacheSummary?
            let status = try FetchHelperProcess.run(arguments) { line in
                summary = try JSONDecoder().decode(CacheSummary.self, from: line)
            }
            guard status == 0, let summary else { throw FetchHelperProcess.failure(status == 0 ? 1 : status, doing: what) }
            return summary
        }
    }
}
