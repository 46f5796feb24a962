/// Many URLs at once.
extension ImageFetcher {
    /// Fetches every URL, `options.concurrency` at a time. The results come back in the
    /// order of `urls`; one URL's failure does not stop the others. A URL listed twice (or
    /// with another fragment) is fetched once, and its result given for each. `completed` is called as each distinct URL finishes, from any thread.
    public func fetchAll(_ urls: [String], completed: @escaping @Sendable (String, Result<FetchedImage, FetchFailure>) -> Void = { _, _ in })
        async -> [Result<FetchedImage, FetchFailure>] {
        await fetchAll(urls, keep: { $0 }, completed: completed)
    }

    /// As ``fetchAll(_:completed:)``, with each image turned by `keep` into what the caller
    /// holds on to, as soon as it arrives: a caller that writes the bytes to a file and keeps
    /// the path holds at most `concurrency` images in memory, however many URLs there are.
    /// An error `keep` throws fails that URL (`notKept`).
    public func fetchAll<Kept: Sendable>(_ urls: [String], keep: @escaping @Sendable (FetchedImage) throws -> Kept,
                                         completed: @escaping @Sendable (String, Result<Kept, FetchFailure>) -> Void = { _, _ in })
        async -> [Result<Kept, FetchFailure>] {
        // One fetch per cache key: URLs that differ only in their fragment are one resource.
        var distinct: [String] = []
        var seen = Set<String>()
        for url in urls where seen.insert(HTTPCache.key(for: url)).inserted { distinct.append(url) }

        var results: [String: Result<Kept, FetchFailure>] = [:]
        await withTaskGroup(of: (Int, Result<Kept, FetchFailure>).self) { group in
            var started = 0
            while started < distinct.count || !group.isEmpty {
                while started < distinct.count, started - results.count < max(options.concurrency, 1) {
                    let (index, url) = (started, distinct[started])
                    group.addTask {
                        let result = await self.fetchResult(url).flatMap { image -> Result<Kept, FetchFailure> in
                            do {
                                return .success(try keep(image))
                            } catch {
                                return .failure(FetchFailure(url: url, reason: .notKept("\(error)")))
                            }
                        }
                        return (index, result)
                    }
                    started += 1
                }
                guard let (index, result) = await group.next() else { break }
                results[HTTPCache.key(for: distinct[index])] = result
                completed(distinct[index], result)
            }
        }
        cache?.trim()
        return urls.map { results[HTTPCache.key(for: $0)]! }
    }

    /// One fetch, its failure as a value.
    public func fetchResult(_ url: String) async -> Result<FetchedImage, FetchFailure> {
        do {
            return .success(try await fetch(url))
        } catch let failure as FetchFailure {
            return .failure(failure)
        } catch {
            return .failure(classify(error, url: url))
        }
    }
}
