/// What `imagegallery` asks of its fetch helper, sent as one JSON document on the helper's
/// standard input (so that no URL is ever parsed as an option).
public struct FetchHelperRequest: Codable, Sendable {
    /// `default`, `reload` or `offline`.
    public var cachePolicy: String
    public var jobs: Int
    public var timeoutSeconds: Double
    public var connectTimeoutSeconds: Double
    public var retries: Int
    public var maxImageBytes: Int
    /// In command-line order, duplicates included.
    public var urls: [String]

    public init(cachePolicy: String, jobs: Int, timeoutSeconds: Double, connectTimeoutSeconds: Double, retries: Int,
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
