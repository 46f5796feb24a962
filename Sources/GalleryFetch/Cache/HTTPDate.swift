import Foundation

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
        guard let day, let month, let year, clock.count == 3, (1 ... 31).contains(day), (1970 ... 9999).contains(year),
              (0 ... 23).contains(clock[0]), (0 ... 59).contains(clock[1]), (0 ... 60).contains(clock[2])
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86_400
            + Int64(clock[0] * 3600 + clock[1] * 60 + min(clock[2], 59))
    }

    /// IMF-fixdate, as sent in If-Modified-Since.
    public static func format(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = civilFromDays(days)
        let second = seconds - days * 86_400
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
        let monthName = months[month - 1].prefix(1).uppercased() + months[month - 1].dropFirst()
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(Int64(day))) \(monthName) \(year) \(two(second / 3600)):\(two(second % 3600 / 60)):\(two(second % 60)) GMT"
    }

    // Howard Hinnant's days-from-civil algorithms: exact for the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int64, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
