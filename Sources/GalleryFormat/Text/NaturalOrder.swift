/// Orders names as people do: digit runs compare by value, so "2.jpg" comes before "10.jpg".
/// Ties (such as "01" and "1") fall back to byte order, so the order is total and stable.
public enum NaturalOrder {
    /// Whether `a` sorts before `b`; pass it to `sorted(by:)`. Digit runs compare by value
    /// (leading zeros aside), everything else by UTF-8 byte, so case matters ("B" before "a").
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var i = 0
        var j = 0
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                let si = i
                let sj = j
                while i < x.count, isDigit(x[i]) { i += 1 }
                while j < y.count, isDigit(y[j]) { j += 1 }
                let runX = x[si ..< i].drop { $0 == 0x30 }
                let runY = y[sj ..< j].drop { $0 == 0x30 }
                if runX.count != runY.count { return runX.count < runY.count }
                if !runX.elementsEqual(runY) { return runX.lexicographicallyPrecedes(runY) }
            } else {
                if x[i] != y[j] { return x[i] < y[j] }
                i += 1
                j += 1
            }
        }
        if (x.count - i) != (y.count - j) { return (x.count - i) < (y.count - j) }
        return x.lexicographicallyPrecedes(y)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
