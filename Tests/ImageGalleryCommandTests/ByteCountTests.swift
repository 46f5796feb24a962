import Foundation
@testable import imagegallery
import Testing

/// Byte counts as the terminal shows them: one decimal in the largest decimal unit, rounded
/// half up on the exact count, and the exact count beside.
@Suite("Byte counts")
struct ByteCountTests {
    @Test func smallCountsAreInBytes() {
        #expect(ByteCount.describe(0) == "0 bytes")
        #expect(ByteCount.describe(999) == "999 bytes")
    }

    @Test func tiesRoundUpAndCarriesStayInTheUnit() {
        #expect(ByteCount.describe(22_712_782) == "22.7 MB (22712782 bytes)")
        #expect(ByteCount.describe(1_000) == "1.0 kB (1000 bytes)")
        #expect(ByteCount.describe(1_049) == "1.0 kB (1049 bytes)")
        #expect(ByteCount.describe(1_050) == "1.1 kB (1050 bytes)")
        #expect(ByteCount.describe(1_150) == "1.2 kB (1150 bytes)")
        #expect(ByteCount.describe(999_950) == "1000.0 kB (999950 bytes)")
        #expect(ByteCount.describe(1_000_000) == "1.0 MB (1000000 bytes)")
        #expect(ByteCount.describe(UInt64.max) == "18446744.1 TB (18446744073709551615 bytes)")
    }

    /// Against Foundation's decimal arithmetic, which rounds the exact quotient independently.
    @Test func everyCountMatchesExactDecimalRounding() {
        // 200 counts of each length from 4 to 17 digits, the same on every run (a linear
        // congruential sequence), each unit's ties among them.
        var counts: [UInt64] = [1_050, 1_150, 2_500_000, 7_750_000_000]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for digits in 3 ... 16 {
            var low: UInt64 = 1
            for _ in 0 ..< digits { low *= 10 }
            for _ in 0 ..< 200 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                counts.append(low + (state >> 8) % (low * 9))
            }
        }
        let units = ["bytes", "kB", "MB", "GB", "TB"]
        for bytes in counts {
            var unit = 0
            while unit < 4, Decimal(bytes) >= pow(Decimal(1000), unit + 1) { unit += 1 }
            var quotient = Decimal(bytes) / pow(Decimal(1000), unit)
            var rounded = Decimal()
            NSDecimalRound(&rounded, &quotient, 1, .plain)
            let tenths = NSDecimalNumber(decimal: rounded * 10).uint64Value
            #expect(ByteCount.describe(bytes) == "\(tenths / 10).\(tenths % 10) \(units[unit]) (\(bytes) bytes)")
        }
    }
}
