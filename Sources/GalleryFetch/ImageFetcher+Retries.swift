import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import SystemPackage

extension ImageFetcher {
    /// Sends the request, retrying a 429 or 5xx answer (and a connection the server dropped)
    /// up to `maxRetries` times: after `Retry-After` when the server gives one, else after an
    /// exponential backoff with jitter.
    func exchangeRetrying(_ url: String, headers: [(String, String)], reportedAs original: String)
        async throws -> HTTPExchange {
        var attempt = 0
        while true {
            attempt += 1
            let outcome: HTTPExchange
            do {
                outcome = try await exchange(url, headers: headers, rules: bodyRules(for: original))
            } catch let failure as FetchFailure {
                throw failure
            } catch {
                let failure = classify(error, url: original)
                guard case .connectionFailed = failure.reason, Self.isTransient(error), attempt <= options.maxRetries else {
                    throw failure
                }
                try await pause(backoff(attempt), url: original)
                continue
            }
            guard outcome.status == 429 || (500 ..< 600).contains(outcome.status) else { return outcome }
            guard attempt <= options.maxRetries else {
                throw FetchFailure(url: original, reason: .httpStatus(outcome.status, outcome.reasonPhrase, attempts: attempt))
            }
            var wait = backoff(attempt)
            if let retryAfter = outcome.field("retry-after").flatMap(Self.retryAfterSeconds) {
                guard retryAfter <= Int64(options.longestRetryWait.components.seconds) else {
                    throw FetchFailure(url: original, reason: .retryWaitTooLong(outcome.status, seconds: retryAfter))
                }
                wait = .seconds(retryAfter)
            }
            try await pause(wait, url: original)
        }
    }

    /// `Retry-After` (RFC 9110 section 10.2.3): delay-seconds or an HTTP date.
    static func retryAfterSeconds(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = CacheControl.deltaSeconds(trimmed) { return seconds }
        return HTTPDate.parse(trimmed).map { max(0, $0 - Clock.nowMilliseconds() / 1000) }
    }

    func backoff(_ attempt: Int) -> Duration {
        let base = options.retryDelay * (1 << min(attempt - 1, 10))
        return base * Double.random(in: 0.75 ... 1.25)
    }

    private func pause(_ duration: Duration, url: String) async throws {
        do {
            try await Task.sleep(for: duration)
        } catch {
            throw FetchFailure(url: url, reason: .connectionFailed("cancelled"))
        }
    }

    static func isTransient(_ error: Error) -> Bool {
        if let client = error as? HTTPClientError {
            return client == .remoteConnectionClosed || client == .readTimeout
        }
        if let io = error as? IOError { return [.connectionReset, .brokenPipe].contains(Errno(rawValue: io.errnoCode)) }
        return false
    }

    /// A client error as a failure that names what happened.
    func classify(_ error: Error, url: String) -> FetchFailure {
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return FetchFailure(url: url, reason: .connectTimedOut(options.connectTimeout))
            case .deadlineExceeded, .readTimeout: return FetchFailure(url: url, reason: .transferTimedOut(options.transferTimeout))
            case .remoteConnectionClosed: return FetchFailure(url: url, reason: .connectionFailed("the server closed the connection"))
            default: return FetchFailure(url: url, reason: .connectionFailed("\(client)"))
            }
        }
        if let connect = error as? NIOConnectionError {
            let reasons = connect.connectionErrors.map { "\($0.error)" }
            return FetchFailure(url: url, reason: .connectionFailed(
                reasons.first.map { _ in Set(reasons).sorted().joined(separator: "; ") } ?? "cannot resolve \(connect.host)"))
        }
        if error is CancellationError { return FetchFailure(url: url, reason: .connectionFailed("cancelled")) }
        return FetchFailure(url: url, reason: .connectionFailed("\(error)"))
    }
}
