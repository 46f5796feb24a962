import Testing
@testable import GalleryEditor

/// The editor's proof of who asks: launch keys, the session cookie, the Host allow-list.
@Suite struct EditorAccessTests {
    let access = EditorAccess(port: 41234)

    @Test func aLaunchKeyOpensOnePageOnce() {
        let key = EditorAccess.launchKey(secret: access.launchSecret)
        #expect(access.redeem(key))
        #expect(!access.redeem(key))
    }

    @Test func aKeyMadeWithAnotherSecretIsRefused() {
        let key = EditorAccess.launchKey(secret: EditorAccess.newSecret())
        #expect(!access.redeem(key))
    }

    @Test func aTamperedOrMalformedKeyIsRefused() {
        let key = EditorAccess.launchKey(secret: access.launchSecret)
        let flipped = String(key.dropLast()) + (key.last == "0" ? "1" : "0")
        for bad in [flipped, "", ".", String(key.prefix(32)), key + "0", key.uppercased(), "zz" + key.dropFirst(2)] {
            #expect(!access.redeem(bad), "accepted \(bad)")
        }
        #expect(access.redeem(key))
    }

    @Test func onlyLoopbackNamesWithThisPortAreAllowedHosts() {
        for good in ["127.0.0.1:41234", "[::1]:41234", "localhost:41234"] {
            #expect(access.allowsHost(good), "refused \(good)")
        }
        for bad in [nil, "", "127.0.0.1", "127.0.0.1:41235", "evil.example:41234", "localhost.evil.example:41234",
                    "127.0.0.2:41234", "[::1]", "LOCALHOST:41234x", "0.0.0.0:41234"] {
            #expect(!access.allowsHost(bad), "allowed \(bad ?? "nil")")
        }
    }

    @Test func theSessionCookieIsRequiredExactly() {
        let cookie = access.sessionCookie
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Strict"))
        let pair = String(cookie.prefix(while: { $0 != ";" }))
        #expect(access.hasSession(cookieHeader: pair))
        #expect(access.hasSession(cookieHeader: "other=1; " + pair))
        #expect(!access.hasSession(cookieHeader: nil))
        #expect(!access.hasSession(cookieHeader: String(pair.dropLast())))
        #expect(!access.hasSession(cookieHeader: pair.replacingOccurrences(of: "41234", with: "41235")))
        #expect(!access.hasSession(cookieHeader: EditorAccess(port: 41234).sessionCookie))
    }
}

/// The galleries the document browser lists: the opened folders' own, never what a link leads to.
@Suite struct GalleryLibraryTests {
    @Test func fileStemsFromHostileTitlesAreSafeNames() {
        #expect(GalleryLibrary.fileStem(for: "Holiday 2026") == "Holiday 2026")
        #expect(GalleryLibrary.fileStem(for: "../../etc/passwd") == "-..-etc-passwd")
        #expect(GalleryLibrary.fileStem(for: "...") == "Untitled")
        #expect(GalleryLibrary.fileStem(for: "a\u{202E}b\u{0007}c") == "a-b-c")
        #expect(GalleryLibrary.fileStem(for: String(repeating: "x", count: 500)).count == 100)
        #expect(!GalleryLibrary.fileStem(for: "a/b\\c").contains("/"))
        // Hidden by its first byte, though its first Character is ".\u{301}"; and a wide space
        // before a dot once left the dot leading once the space was trimmed.
        #expect(GalleryLibrary.fileStem(for: ".\u{301}x") == "\u{301}x")
        #expect(GalleryLibrary.fileStem(for: "\u{2003}.x") == "x")
    }
}
