extension BinaryInteger {
    /// The number's digits with zeros in front up to `width` (none taken off a longer one):
    /// page and spool names, times, hexadecimal fields. `String(format: "%06d")` would bring
    /// Foundation's formatting, and with it ICU, into every start.
    package func zeroPadded(toWidth width: Int, radix: Int = 10) -> String {
        let digits = String(self, radix: radix)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
