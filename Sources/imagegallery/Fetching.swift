import ArgumentParser
import Foundation
import GalleryFetch
import GalleryFormat

/// Options of the commands that take URLs (`add`, `create`).
struct FetchCommandOptions: ParsableArguments {
    @Option(help: ArgumentHelp("default: use fresh cached images, revalidate stale ones; reload: always ask the server; "
                               + "offline: use the cache only.", valueName: "policy"))
    var cachePolicy: CachePolicy = .default

    @Option(help: ArgumentHelp("Images fetched at once.", valueName: "n"))
    var jobs: Int = 4

    @Option(help: ArgumentHelp("Seconds one image may take to download, connection included.", valueName: "seconds"))
    var timeout: Double = 60

    @Option(help: ArgumentHelp("Seconds to wait for a connection.", valueName: "seconds"))
    var connectTimeout: Double = 10

    @Option(help: ArgumentHelp("Further attempts after a 429 or 5xx answer.", valueName: "n"))
    var retries: Int = 3

    @Option(help: ArgumentHelp("The largest image accepted, in bytes.", valueName: "bytes"))
    var maxImageBytes: Int = 50_000_000

    func validate() throws {
        guard (1 ... 64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
        guard connectTimeout > 0, connectTimeout <= 3600 else {
            throw ValidationError("--connect-timeout must be between 0 and 3600 seconds")
        }
        guard (0 ... 20).contains(retries) else { throw ValidationError("--retries must be between 0 and 20") }
        guard maxImageBytes > 0 else { throw ValidationError("--max-image-bytes must be positive") }
    }

    var fetchOptions: FetchOptions {
        var options = FetchOptions()
        options.cachePolicy = cachePolicy
        options.concurrency = jobs
        options.transferTimeout = .milliseconds(Int64(timeout * 1000))
        options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        options.maxRetries = retries
        options.maxImageBytes = maxImageBytes
        return options
    }
}

extension CachePolicy: ExpressibleByArgument {}

/// One item of `add` or `create`, in command-line order: an image file or a URL.
enum SourceItem: Sendable {
    case file(String)
    case url(String)
}

/// What became of one item, for the report.
struct ItemReport: Encodable, Sendable {
    var source: String
    /// "added" or "failed".
    var status: String
    var image: String?
    /// For URLs: "network", "cache" or "revalidated".
    var origin: String?
    var error: String?
    var errorCode: String?
}

enum Fetching {
    /// Splits the command line's sources into files (folders expanded, as before) and URLs,
    /// keeping their order.
    static func items(_ sources: [String]) throws -> (items: [SourceItem], skipped: [String]) {
        var items: [SourceItem] = []
        var skipped: [String] = []
        for source in sources {
            if ImageFetcher.looksLikeURL(source) {
                items.append(.url(source))
            } else {
                let (paths, skippedHere) = try SourceList.expand([source])
                items += paths.map(SourceItem.file)
                skipped += skippedHere
            }
        }
        return (items, skipped)
    }

    /// Fetches every URL among the items, with a progress bar on a terminal and one line per
    /// URL either way; returns the results by URL.
    static func fetch(_ items: [SourceItem], into spool: ImageSpool, options: FetchOptions, quiet: Bool) throws
        -> [String: Result<SpooledImage, FetchFailure>] {
        let urls = items.compactMap { item -> String? in if case .url(let url) = item { url } else { nil } }
        guard !urls.isEmpty else { return [:] }
        let cache = HTTPCache()
        // One fetch per resource: URLs that differ in their fragment only count once.
        let progress = ProgressBar("Fetching", total: UInt64(Set(urls.map(HTTPCache.key)).count))
        let done = Mutex(0)
        let results = try runDocumentWork {
            let fetcher = ImageFetcher(options: options, cache: cache)
            let results = await fetcher.fetchAll(urls, keep: spool.keep) { url, result in
                let count = done.withLock { $0 += 1; return $0 }
                if !quiet { progress.log(describe(url, result)) }
                progress.update(UInt64(count), detail: "\(count)/\(progress.totalCount)")
            }
            await fetcher.shutdown()
            return results
        }
        progress.finish()
        for url in cache.discardedEntries {
            Terminal.warning("the cached copy of \(url) was damaged; it was discarded and fetched again")
        }
        return Dictionary(zip(urls, results), uniquingKeysWith: { first, _ in first })
    }

    static func describe(_ url: String, _ result: Result<SpooledImage, FetchFailure>) -> String {
        switch result {
        case .success(let image):
            let origin = switch image.origin {
            case .network: ""
            case .cache: ", from the cache"
            case .revalidated: ", from the cache (confirmed by the server)"
            }
            return "fetched \(url): \(image.header.width)×\(image.header.height) \(image.header.mediaType == .jpeg ? "JPEG" : "PNG"), "
                + "\(ByteCount.describe(image.byteSize))\(origin)"
        case .failure(let failure):
            return "failed \(failure.description)"
        }
    }

    static func report(_ url: String, _ result: Result<SpooledImage, FetchFailure>, image: String?) -> ItemReport {
        switch result {
        case .success(let fetched):
            ItemReport(source: url, status: "added", image: image, origin: fetched.origin.rawValue)
        case .failure(let failure):
            ItemReport(source: url, status: "failed", error: failure.message, errorCode: failure.code)
        }
    }

    /// When nothing could be had: with --json, the items are still printed for scripts; then
    /// the error, exit 5.
    static func failNothingAdded(path: String, message: String, items: [SourceItem],
                                 fetched: [String: Result<SpooledImage, FetchFailure>], json: Bool) throws -> Never {
        if json {
            let reports = items.map { item -> ItemReport in
                switch item {
                case .file(let file): ItemReport(source: file, status: "failed")
                case .url(let url): report(url, fetched[url]!, image: nil)
                }
            }
            try Terminal.printJSON(NothingAddedReport(path: path, items: reports))
        }
        throw CommandFailure(message: message, status: ExitStatus.nothingAdded)
    }

    struct NothingAddedReport: Encodable {
        var path: String
        var outcome = "nothing-added"
        var items: [ItemReport]
    }

    /// The exit status after some items failed: 0 if none did, 4 if some did, 5 if all did.
    static func status(failed: Int, of total: Int) -> Int32 {
        failed == 0 ? 0 : failed < total ? ExitStatus.partlyAdded : ExitStatus.nothingAdded
    }
}

import Synchronization
