import Foundation
import GalleryFormat

/// HTTP dates (RFC 9110 section 5.6.7): IMF-fixdate, which senders must use, and the two
/// obsolete forms recipients must still accept. Parsed by hand: a DateFormatter per call is
/// slow, and a shared one is not safe across threads.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970, or nil when the text is not an HTTP date.
    public static func parse(_ text: String) -> Int64? {
        // Split on space, comma, colon and hyphen: "Sun, 06 Nov 1994 08:49:37 GMT",
        // "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994".
        let parts = text.lowercased().split(whereSeparator: { " ,:-".contains($0) }).map(String.init)
        guard parts.count >= 7 else { return nil }
        var day: Int?, month: Int?, year: Int?
        var clock: [Int] = []
        if let monthIndex = months.firstIndex(of: parts[1]) {
            // asctime: weekday month day hh mm ss year
            month = monthIndex + 1
            day = Int(parts[2])
            clock = parts[3 ... 5].compactMap { Int($0) }
            year = Int(parts[6])
        } else if let monthIndex = months.firstIndex(of: parts[2]) {
            month = monthIndex + 1
            day = Int(parts[1])
            year = Int(parts[3])
            clock = parts[4 ... 6].compactMap { Int($0) }
            guard parts.count >= 8, parts[7] == "gmt" || parts[7] == "utc" else { return nil }
            // RFC 850's two-digit year: within 50 years of now, as RFC 9110 asks; the now is
            // taken as this century.
            if let two = year, parts[3].count == 2 { year = two >= 70 ? 1900 + two : 2000 + two }
        }
        // The toolkit's one calendar decides what is a date: no 31 February, no 29 February
        // outside leap years, no hour 24; a leap second counts as the next second. A date that
        // is none is invalid, which for Expires means already expired (RFC 9111 section 5.3).
        guard let day, let month, let year, clock.count == 3, (1970 ... 9999).contains(year) else { return nil }
        return Timestamp.seconds(year: Int64(year), month: Int64(month), day: Int64(day),
                                 hour: Int64(clock[0]), minute: Int64(clock[1]), second: Int64(clock[2]))
    }

    /// IMF-fixdate, as sent in If-Modified-Since.
    public static func format(_ seconds: Int64) -> String {
        let (year, month, day, second) = Timestamp.civil(fromSeconds: seconds)
        let days = (seconds - second) / 86_400
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
        let monthName = months[Int(month) - 1].prefix(1).uppercased() + months[Int(month) - 1].dropFirst()
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(monthName) \(year) \(two(second / 3600)):\(two(second % 3600 / 60)):\(two(second % 60)) GMT"
    }
}
