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
        await withTaskGroup(of: (String, Result<FetchedImage, FetchFailure>).self) { group in
            var next = distinct.makeIterator()
            func startOne() -> Bool {
                guard let url = next.next() else { return false }
                group.addTask {
                    do throws(FetchFailure) {
                        return (url, .success(try await self.fetch(url)))
                    } catch {
                        return (url, .failure(error))
                    }
                }
                return true
            }
            for _ in 0 ..< max(options.concurrency, 1) where !startOne() { break }
            while let (url, result) = await group.next() {
                results[url] = result
                completed(url, result)
                _ = startOne()
            }
        }
        cache?.trim()
        return urls.map { results[$0]! }
    }
}
