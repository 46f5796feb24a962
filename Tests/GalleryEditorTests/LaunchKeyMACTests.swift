import Testing
@testable import GalleryEditor

/// The launch key's MAC against RFC 4231's HMAC-SHA-256 vectors (cases 1, 2 and 6: a short key,
/// a key shorter than its padding, a key longer than a block) and a key of exactly one block.
@Suite struct LaunchKeyMACTests {
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 64), "exactly one block",
         "5b87dae58ee4b7b43b98ee08d3d044b8762c3ea166aff96a2b2298de9f34a8ea"),
    ])
    func codesMatchTheRFC(key: [UInt8], message: String, expected: String) {
        let code = LaunchKeyMAC.code(for: Array(message.utf8), key: key)
        #expect(EditorAccess.hex(code) == expected)
        #expect(LaunchKeyMAC.isValid(code, for: Array(message.utf8), key: key))
        #expect(!LaunchKeyMAC.isValid(code, for: Array((message + ".").utf8), key: key))
    }
}
