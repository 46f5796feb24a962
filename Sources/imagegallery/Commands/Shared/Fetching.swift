import ArgumentParser
import FoundationEssentials
import GalleryBuilder
import GalleryPrograms
import GalleryFormat
import GalleryImageHeaders

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

    func request(for urls: [String]) -> FetchHelperRequest {
        FetchHelperRequest(cachePolicy: cachePolicy.rawValue, jobs: jobs, timeoutSeconds: timeout,
                           connectTimeoutSeconds: connectTimeout, retries: retries, maxImageBytes: maxImageBytes, urls: urls)
    }
}

/// Where a fetch may take its answer from (Specs/fetching.md, "Cache policies").
enum CachePolicy: String, CaseIterable, ExpressibleByArgument {
    case `default`, reload, offline
}

/// One item of `add` or `create`, in command-line order: an image file or a URL.
enum SourceItem: Sendable {
    case file(String)
    case url(String)
}

/// What became of one item, for the report. A member that is nil is left out.
struct ItemReport: Encodable, Sendable {
    var source: String
    /// "added" or "failed".
    var status: String
    var image: String?
    /// For URLs: "network", "cache" or "revalidated".
    var origin: String?
    var error: String?
    var errorCode: String?
    /// Seed JSON only: where the image sits in the input, as a JSON pointer, and its
    /// aspect-ratio check.
    var pointer: String?
    /// As the input gave it.
    var aspectRatio: Double?
    /// The fetched image's header size.
    var width: Int?
    var height: Int?
    /// Set when the aspect ratio disagrees with the image by more than 1%.
    var warning: String?
}

enum Fetching {
    /// Splits the command line's sources into files (folders expanded, as before) and URLs,
    /// keeping their order.
    static func items(_ sources: [String], accepting accepted: Set<MediaType> = Set(MediaType.allCases)) throws
        -> (items: [SourceItem], skipped: [String]) {
        var items: [SourceItem] = []
        var skipped: [String] = []
        for source in sources {
            if FetchHelper.looksLikeURL(source) {
                items.append(.url(source))
            } else {
                let (paths, skippedHere) = try GalleryBuilder.imageFiles(in: [source], accepting: accepted)
                items += paths.map(SourceItem.file)
                skipped += skippedHere
            }
        }
        return (items, skipped)
    }

    /// Fetches every URL among the items through the fetch helper, with a progress bar on a
    /// terminal and one line per URL either way. The caller removes the spool when done.
    /// With `accepted` types only (`--accept`), an image of another type is a failure that says so.
    static func fetch(_ items: [SourceItem], options: FetchCommandOptions, quiet: Bool,
                      accepting accepted: Set<MediaType> = Set(MediaType.allCases)) throws -> FetchRun {
        var run = try fetchAll(items, options: options, quiet: quiet)
        for failure in run.refuse(typesOtherThan: accepted) { Terminal.warning("refused \(failure.description)") }
        return run
    }

    private static func fetchAll(_ items: [SourceItem], options: FetchCommandOptions, quiet: Bool) throws -> FetchRun {
        let urls = items.compactMap { item -> String? in if case .url(let url) = item { url } else { nil } }
        guard !urls.isEmpty else { return .none }
        var progress: ProgressBar?
        var done = 0
        let result: (run: FetchRun, status: Int32)
        do {
            result = try FetchHelperClient.fetch(options.request(for: urls)) { event in
                switch event.event {
                case .start:
                    progress = ProgressBar("Fetching", total: UInt64(event.resources ?? urls.count))
                case .result:
                    guard let url = event.url, let bar = progress else { break }
                    done += 1
                    if !quiet { bar.log(describe(url, FetchRun.result(of: event, url: url))) }
                    bar.update(UInt64(done), detail: "\(done)/\(bar.totalCount)")
                case .discarded:
                    Terminal.warning("the cached copy of \(event.url ?? "?") was damaged; it was discarded and fetched again")
                case .end:
                    break
                }
            }
        } catch let failure as FetchHelperClient.Failure {
            progress?.finish()
            throw FetchHelperProcess.commandFailure(failure)
        } catch {
            progress?.finish()
            throw error
        }
        progress?.finish()
        guard result.status == 0 else { throw FetchHelperProcess.failure(result.status, doing: "cannot fetch the URLs") }
        return result.run
    }

    static func describe(_ url: String, _ result: Result<SpooledImage, FetchItemFailure>) -> String {
        switch result {
        case .success(let spooled):
            let image = spooled.image
            let origin = switch spooled.origin {
            case "cache": ", from the cache"
            case "revalidated": ", from the cache (confirmed by the server)"
            default: ""
            }
            return "fetched \(url): \(image.header.width)×\(image.header.height) \(image.header.mediaType.name), "
                + "\(ByteCount.describe(image.byteSize))\(origin)"
        case .failure(let failure):
            return "failed \(failure.description)"
        }
    }

    static func report(_ url: String, _ result: Result<SpooledImage, FetchItemFailure>, image: String?) -> ItemReport {
        switch result {
        case .success(let fetched):
            ItemReport(source: url, status: "added", image: image, origin: fetched.origin)
        case .failure(let failure):
            ItemReport(source: url, status: "failed", error: failure.message, errorCode: failure.code)
        }
    }

    /// When nothing could be had: with --json, the items are still printed for scripts; then
    /// the error, exit 5.
    static func failNothingAdded(path: String, message: String, items: [SourceItem],
                                 fetched: FetchRun, json: Bool) throws -> Never {
        if json {
            let reports = items.map { item -> ItemReport in
                switch item {
                case .file(let file): ItemReport(source: file, status: "failed")
                case .url(let url): report(url, fetched[url], image: nil)
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
