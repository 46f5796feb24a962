internal import GallerySystem

/// A point in time as the manifest writes it: RFC 3339, UTC.
///
/// Kept as seconds and nanoseconds since 1970 so that formatting is exact and needs no
/// calendar or locale machinery.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    public var seconds: Int64
    /// The fraction of the second, 0 to 999,999,999.
    public var nanoseconds: Int32

    /// A time from seconds and nanoseconds since 1970, UTC.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The current time, to the nanosecond.
    public static var now: Timestamp {
        let now = WallClock.now
        return Timestamp(seconds: now.seconds, nanoseconds: now.nanoseconds)
    }

    /// Orders by time.
    public static func < (a: Timestamp, b: Timestamp) -> Bool { (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds) }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the fraction only when non-zero, trailing zeros dropped.
    public var rfc3339: String {
        let days = Self.floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) + "T"
        text += Self.pad(secondOfDay / 3600, 2) + ":" + Self.pad(secondOfDay / 60 % 60, 2) + ":" + Self.pad(secondOfDay % 60, 2)
        if nanoseconds > 0 {
            var fraction = Self.pad(Int64(nanoseconds), 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// The ``rfc3339`` form.
    public var description: String { rfc3339 }

    /// Parses an RFC 3339 date-time (`T` or `t`, `Z` or a ±HH:MM offset, 0–9 fraction digits).
    public init?(rfc3339 text: some StringProtocol) {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var value: Int64 = 0
            for i in from ..< from + count {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int64(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 20,
              let year = digits(0, 4), b[4] == UInt8(ascii: "-"),
              let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = digits(11, 2), b[13] == UInt8(ascii: ":"),
              let minute = digits(14, 2), b[16] == UInt8(ascii: ":"),
              let second = digits(17, 2)
        else { return nil }
        guard let whole = Self.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var i = 19
        var nanos: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var count = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                guard count < 9 else { return nil }
                nanos = nanos * 10 + Int64(b[i] - 0x30)
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
            for _ in count ..< 9 { nanos *= 10 }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = digits(i + 4, 2),
                  oh <= 23, om <= 59
            else { return nil }
            offset = (oh * 60 + om) * 60 * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        default:
            return nil
        }
        guard i == b.count else { return nil }
        self.init(seconds: whole - offset, nanoseconds: Int32(nanos))
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, H. Hinnant's algorithms)
    //
    // The one calendar of the toolkit: manifest times and HTTP dates (GalleryFetch) alike.

    /// Seconds since 1970 of a UTC date and time, or nil when there is no such time: month
    /// 1–12, day 1 to the month's length (29 February only in leap years), hour 0–23, minute
    /// 0–59, second 0–60. A leap second (:60) is folded onto the next second: what is needed
    /// of these times is order, not astronomy. The year is not bounded here; callers bound it.
    package static func seconds(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Int64? {
        guard (1 ... 12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              (0 ... 23).contains(hour), (0 ... 59).contains(minute), (0 ... 60).contains(second),
              (-1_000_000 ... 1_000_000).contains(year)
        else { return nil }
        return days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The UTC date of a number of seconds since 1970: year, month, day, and the second of the day.
    package static func civil(fromSeconds seconds: Int64) -> (year: Int64, month: Int64, day: Int64, secondOfDay: Int64) {
        let days = floorDiv(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        return (year, month, day, seconds - days * 86_400)
    }

    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func pad(_ value: Int64, _ width: Int) -> String { value.zeroPadded(toWidth: width) }

    /// Broken-down UTC fields, for the ZIP's DOS date and time.
    var utcFields: (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        let days = Self.floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = Self.civil(fromDays: days)
        return (y, m, d, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }
}
