/// What `imagegallery` asks of its fetch helper, sent as one JSON document on the helper's
/// standard input (so that no URL is ever parsed as an option).
package struct FetchHelperRequest: Codable, Sendable {
    /// `default`, `reload` or `offline`.
    package var cachePolicy: String
    package var jobs: Int
    package var timeoutSeconds: Double
    package var connectTimeoutSeconds: Double
    package var retries: Int
    package var maxImageBytes: Int
    /// In command-line order, duplicates included.
    package var urls: [String]

    package init(cachePolicy: String, jobs: Int, timeoutSeconds: Double, connectTimeoutSeconds: Double, retries: Int,
                maxImageBytes: Int, urls: [String]) {
        self.cachePolicy = cachePolicy
        self.jobs = jobs
        self.timeoutSeconds = timeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.retries = retries
        self.maxImageBytes = maxImageBytes
        self.urls = urls
    }
}
