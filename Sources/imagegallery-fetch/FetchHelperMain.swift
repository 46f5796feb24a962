import Foundation
import GalleryFetch
import GalleryPrograms
import GallerySystem
import Synchronization

/// `imagegallery-fetch`: the part of imagegallery that talks to the network, run by
/// `imagegallery` (see `FetchHelper`). Not meant to be run by hand; its protocol is in
/// Specs/fetching.md, "The fetch helper".
///
///     imagegallery-fetch fetch          a FetchHelperRequest on stdin, FetchHelperEvent lines on stdout
///     imagegallery-fetch cache info     a CacheSummary on stdout
///     imagegallery-fetch cache clear    removes every entry; a CacheSummary of what was removed
@main
struct FetchHelperMain {
    static func main() async {
        do {
            switch Array(CommandLine.arguments.dropFirst()) {
            case ["fetch"]: try await fetch()
            case ["cache", "info"]: try printJSON(summary(HTTPCache().info()))
            case ["cache", "clear"]: try clearCache()
            default:
                throw HelperFailure(message: "usage: \(FetchHelper.name) fetch | cache info | cache clear "
                                    + "(it is run by imagegallery, not by hand)", status: 64)
            }
        } catch let failure as HelperFailure {
            StandardStream.error.write("\(FetchHelper.name): \(failure.message)\n")
            CurrentProcess.exit(failure.status)
        } catch {
            StandardStream.error.write("\(FetchHelper.name): \(error)\n")
            CurrentProcess.exit(1)
        }
    }

    static func fetch() async throws {
        let request: FetchHelperRequest
        do {
            // The request comes from imagegallery itself; the bound only stops a runaway pipe.
            var input: [UInt8] = []
            try StandardInput.readChunks { chunk in
                guard input.count + chunk.count <= 256 << 20 else { throw HelperFailure(message: "the request is too large", status: 64) }
                input += chunk
            }
            request = try JSONDecoder().decode(FetchHelperRequest.self, from: Data(input))
        } catch let failure as HelperFailure {
            throw failure
        } catch {
            throw HelperFailure(message: "the request on standard input is not valid: \(error)", status: 64)
        }
        guard let policy = CachePolicy(rawValue: request.cachePolicy) else {
            throw HelperFailure(message: "unknown cache policy \(request.cachePolicy)", status: 64)
        }
        var options = FetchOptions()
        options.cachePolicy = policy
        options.concurrency = request.jobs
        options.transferTimeout = .milliseconds(Int64(request.timeoutSeconds * 1000))
        options.connectTimeout = .milliseconds(Int64(request.connectTimeoutSeconds * 1000))
        options.maxRetries = request.retries
        options.maxImageBytes = request.maxImageBytes

        let spool = try ImageSpool()
        let cache = HTTPCache()
        let output = EventWriter()
        output.write(FetchHelperEvent(event: .start, spool: spool.folder.string,
                                      resources: Set(request.urls.map(HTTPCache.key)).count))
        let fetcher = ImageFetcher(options: options, cache: cache)
        _ = await fetcher.fetchAll(request.urls, keep: spool.keep) { url, result in
            switch result {
            case .success(let image):
                output.write(FetchHelperEvent(event: .result, url: url, image: image))
            case .failure(let failure):
                output.write(FetchHelperEvent(event: .result, url: url,
                                              failure: .init(code: failure.code, message: failure.message)))
            }
        }
        await fetcher.shutdown()
        for url in cache.discardedEntries { output.write(FetchHelperEvent(event: .discarded, url: url)) }
        output.write(FetchHelperEvent(event: .end))
    }

    static func clearCache() throws {
        do {
            try printJSON(summary(HTTPCache().clear()))
        } catch {
            throw HelperFailure(message: "\(HTTPCache.defaultDirectory): cannot clear the cache: \(FileSystemError.reason(of: error))",
                                status: 74)
        }
    }

    static func summary(_ info: HTTPCacheInfo) -> CacheSummary {
        CacheSummary(directory: info.directory, entries: info.entries, bytes: info.bytes,
                     diskCapacity: info.diskCapacity, memoryCapacity: info.memoryCapacity)
    }

    static func printJSON(_ value: some Encodable) throws {
        StandardStream.output.write(Array(try JSONEncoder().encode(value)) + Array("\n".utf8))
    }
}

/// Lines to standard output, whole, from whichever task finishes.
final class EventWriter: Sendable {
    private let lock = Mutex(())

    func write(_ event: FetchHelperEvent) {
        guard let line = try? JSONEncoder().encode(event) else { return }
        lock.withLock { _ in StandardStream.output.write(Array(line) + Array("\n".utf8)) }
    }
}

/// A failure that ends the helper with a message and an exit status (those of `imagegallery`).
struct HelperFailure: Error {
    var message: String
    var status: Int32
}
