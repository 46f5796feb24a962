import Foundation
import GalleryFetch
import GalleryFormat
import Testing

/// The code of "Fetching images" (GalleryFetch.docc/FetchingImages.md): a sample image put in
/// a fresh cache, then a batch of URLs fetched offline, so that no network is needed.
@Suite("Fetching images")
struct FetchingExamples {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test func fetchesABatchThroughTheCache() async throws {
        let cacheFolder = scratch.file("cache")
        let sunset = try Repository.bytes(Repository.images + "/1-sunset.jpg")
        let urls = ["https://images.example/sunset.jpg", "https://images.example/sunset.jpg#again",
                    "ftp://images.example/tiles.png", "https://images.example/missing.jpg"]

        let cache = HTTPCache(HTTPCache.Configuration(directory: cacheFolder))
        var options = FetchOptions()
        options.maxImageBytes = 20_000_000

        let now = Int64(Date().timeIntervalSince1970 * 1000)
        cache.store(CachedResponse(url: "https://images.example/sunset.jpg", status: 200,
                                   fields: ["content-type": ["image/jpeg"], "cache-control": ["max-age=86400"]],
                                   requestTime: now, responseTime: now, body: sunset))

        options.cachePolicy = .offline

        let fetcher = ImageFetcher(options: options, cache: cache)
        let results = await fetcher.fetchAll(urls) { url, result in
            if case .failure(let failure) = result {
                print(failure)
            }
        }
        await fetcher.shutdown()

        for case .success(let image) in results {
            print("\(image.url): \(image.header.mediaType.rawValue), \(image.data.count) bytes from the \(image.origin.rawValue)")
        }

        #expect(results.count == 4)
        let fetched = try results[0].get()
        #expect(fetched.data == sunset && fetched.origin == .cache && fetched.header.mediaType == .jpeg)
        #expect(try results[1].get().data == sunset, "a URL listed again with another fragment is fetched once")
        #expect(Self.reason(results[2]) == .unsupportedScheme("ftp"))
        #expect(Self.reason(results[3]) == .notInCache)
    }

    static func reason(_ result: Result<FetchedImage, FetchFailure>) -> FetchFailure.Reason? {
        guard case .failure(let failure) = result else { return nil }
        return failure.reason
    }
}
