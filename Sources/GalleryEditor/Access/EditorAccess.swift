import Foundation
import GalleryFormat
import Synchronization

/// Who may talk to the editor's server, and how they prove it (Specs/security.md, "The editor").
///
/// The server is reached on loopback, where every local user can connect. So a page proves
/// itself with a session cookie that only a launch URL hands out: `imagegallery edit` prints
/// or opens `http://127.0.0.1:PORT/open?key=NONCE.MAC`, where MAC is an HMAC of the nonce under
/// the launch secret that only the server and the user's own 0600 record file hold. Each nonce
/// opens one page, once; the cookie is HttpOnly and SameSite=Strict, and the redirect takes the
/// key out of the address bar. A second `edit` of the same folders makes its own key from the
/// record without asking the server.
package final class EditorAccess: Sendable {
    /// The secret that signs launch keys (kept in the record file, mode 0600).
    package let launchSecret: [UInt8]
    /// The cookie's value, the same for every page of this server.
    let sessionToken: String
    /// The port the server listens on, in the names it accepts in `Host`.
    package let port: Int
    private let usedNonces = Mutex<Set<String>>([])

    package init(port: Int, launchSecret: [UInt8] = EditorAccess.newSecret()) {
        self.port = port
        self.launchSecret = launchSecret
        sessionToken = Self.randomHex(bytes: 32)
    }

    /// The cookie's name carries the port: browsers keep cookies per host, not per port, so two
    /// editors on one machine must not overwrite each other's.
    package var cookieName: String { "imagegallery_editor_\(port)" }

    /// The launch URL's key: a fresh nonce and its MAC under `secret`.
    package static func launchKey(secret: [UInt8]) -> String {
        let nonce = randomHex(bytes: 16)
        return nonce + "." + hex(LaunchKeyMAC.code(for: Array(nonce.utf8), key: secret))
    }

    /// A fresh 256-bit launch secret.
    package static func newSecret() -> [UInt8] { randomBytes(32) }

    /// Accepts `key` once: a nonce of ours, not used before, with a valid MAC.
    func redeem(_ key: String) -> Bool {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 32, parts[1].count == 64,
              parts[0].allSatisfy(\.isHexDigit), let mac = Self.bytes(fromHex: parts[1]) else { return false }
        let nonce = String(parts[0])
        guard LaunchKeyMAC.isValid(mac, for: Array(nonce.utf8), key: launchSecret) else { return false }
        return usedNonces.withLock { $0.insert(nonce).inserted }
    }

    /// Whether a request's `Host` names this server on loopback; any other name (a DNS
    /// rebinding attack's own domain) is refused.
    func allowsHost(_ host: String?) -> Bool {
        guard let host else { return false }
        return host == "127.0.0.1:\(port)" || host == "[::1]:\(port)" || host == "localhost:\(port)"
    }

    /// Whether the `Cookie` header carries this server's session, compared in constant time.
    func hasSession(cookieHeader: String?) -> Bool {
        guard let cookieHeader else { return false }
        for pair in cookieHeader.split(separator: ";") {
            let trimmed = pair.drop(while: { $0 == " " })
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == cookieName else { continue }
            if Self.constantTimeEqual(Array(trimmed[trimmed.index(after: equals)...].utf8), Array(sessionToken.utf8)) { return true }
        }
        return false
    }

    /// The `Set-Cookie` value that a redeemed launch key answers with.
    var sessionCookie: String { "\(cookieName)=\(sessionToken); Path=/; HttpOnly; SameSite=Strict" }

    /// Whether `a` and `b` hold the same bytes, in time that depends on their length alone.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    package static func randomHex(bytes count: Int) -> String { hex(randomBytes(count)) }

    /// `count` bytes from the system's generator (getrandom(2) on Linux: cryptographically secure).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0 ..< count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    package static func bytes(fromHex text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
