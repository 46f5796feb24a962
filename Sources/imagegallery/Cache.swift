import ArgumentParser
import GalleryFetch

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
                try reportingFailures {
                    let info = HTTPCache().info()
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
        }

        struct Clear: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every cached response.")
            @OptionGroup var output: OutputOptions

            func run() throws {
                try reportingFailures {
                    let removed: HTTPCacheInfo
                    do {
                        removed = try HTTPCache().clear()
                    } catch {
                        throw CommandFailure(message: "\(HTTPCache.defaultDirectory): cannot clear the cache: \(error.localizedDescription)",
                                             status: ExitStatus.ioError)
                    }
                    if output.json {
                        try Terminal.printJSON(removed)
                    } else {
                        print("removed \(removed.entries) entr\(removed.entries == 1 ? "y" : "ies"), "
                              + "\(ByteCount.describe(UInt64(removed.bytes))), from \(removed.directory)")
                    }
                }
            }
        }
    }
}

import Foundation
