/// Many URLs at once.
extension ImageFetcher {
    /// Fetches every URL, `options.concurrency` at a time. The results come back in the
    /// order of `urls`; one URL's failure does not stop the others. A URL listed twice is
    /// fetched once. `completed` is called as each distinct URL finishes, from any thread.
    public func fetchAll(_ urls: [String], completed: @escaping @Sendable (String, Result<FetchedImage, FetchFailure>) -> Void = { _, _ in })
        async -> [Result<FetchedImage, FetchFailure>] {
        var distinct: [String] = []
        var seen = Set<String>()
        for url in urls where seen.insert(url).inserted { distinct.append(url) }

        var results: [String: Result<FetchedImage, FetchFailure>] = [:]
        await withTaskGroup(of: (Int, Result<FetchedImage, FetchFailure>).self) { group in
            var started = 0
            while started < distinct.count || !group.isEmpty {
                while started < distinct.count, started - results.count < max(options.concurrency, 1) {
                    let (index, url) = (started, distinct[started])
                    group.addTask { (index, await self.fetchResult(url)) }
                    started += 1
                }
                guard let (index, result) = await group.next() else { break }
                results[distinct[index]] = result
                completed(distinct[index], result)
            }
        }
        cache?.trim()
        return urls.map { results[$0]! }
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
