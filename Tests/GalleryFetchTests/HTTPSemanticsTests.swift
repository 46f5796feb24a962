import GalleryFetch
import GalleryFormat
import Testing

@Suite("HTTP dates and Cache-Control")
struct HTTPSemanticsTests {
    // RFC 9110 section 5.6.7's example, in its three forms.
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func datesInEveryForm(text: String) {
        #expect(HTTPDate.parse(text) == 784_111_777)
    }

    @Test func formatIsIMFFixdate() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        for seconds: Int64 in [951_782_400, 1_709_164_800, 4_102_444_799] {
            #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds)
        }
    }

    @Test(arguments: ["", "0", "-1", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST"])
    func invalidDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    /// A date and time as day, month, year and clock, with the seconds since 1970 it denotes, or
    /// nil when the calendar has no such moment.
    struct EdgeDate: Sendable, CustomTestStringConvertible {
        var day: Int, month: Int, year: Int, hour: Int, minute: Int, second: Int
        var seconds: Int64?

        static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var clock: String { "\(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))" }
        /// IMF-fixdate (the weekday is not checked by the parser, so it is always Sun here).
        var http: String { "Sun, \(Self.two(day)) \(Self.monthNames[month - 1]) \(year) \(clock) GMT" }
        /// RFC 850, with its two-digit year.
        var rfc850: String { "Sunday, \(Self.two(day))-\(Self.monthNames[month - 1])-\(Self.two(year % 100)) \(clock) GMT" }
        var asctime: String { "Sun \(Self.monthNames[month - 1]) \(day < 10 ? " " : "")\(day) \(clock) \(year)" }
        var rfc3339: String { "\(year)-\(Self.two(month))-\(Self.two(day))T\(clock)Z" }
        var testDescription: String { http }
    }

    static let edgeDates: [EdgeDate] = [
        EdgeDate(day: 30, month: 2, year: 2026, hour: 10, minute: 0, second: 0, seconds: nil),
        EdgeDate(day: 31, month: 2, year: 2026, hour: 10, minute: 0, second: 0, seconds: nil),
        EdgeDate(day: 29, month: 2, year: 2025, hour: 10, minute: 0, second: 0, seconds: nil),
        EdgeDate(day: 29, month: 2, year: 2024, hour: 10, minute: 0, second: 0, seconds: 1_709_200_800),
        EdgeDate(day: 29, month: 2, year: 2000, hour: 0, minute: 0, second: 0, seconds: 951_782_400),
        EdgeDate(day: 29, month: 2, year: 2100, hour: 0, minute: 0, second: 0, seconds: nil),
        EdgeDate(day: 28, month: 2, year: 2026, hour: 23, minute: 59, second: 59, seconds: 1_772_323_199),
        EdgeDate(day: 31, month: 4, year: 2026, hour: 10, minute: 0, second: 0, seconds: nil),
        EdgeDate(day: 28, month: 2, year: 2026, hour: 24, minute: 0, second: 0, seconds: nil),
        EdgeDate(day: 28, month: 2, year: 2026, hour: 10, minute: 60, second: 0, seconds: nil),
        // A leap second is the next second, in both.
        EdgeDate(day: 31, month: 12, year: 2016, hour: 23, minute: 59, second: 60, seconds: 1_483_228_800),
        EdgeDate(day: 28, month: 2, year: 2026, hour: 10, minute: 0, second: 61, seconds: nil),
    ]

    /// HTTP dates and manifest times share one calendar (Timestamp's): the same moments exist
    /// in both, with the same value, and the same do not. 31 February was once 3 March.
    @Test(arguments: edgeDates)
    func edgeDatesAreJudgedByTheOneCalendar(date: EdgeDate) {
        #expect(HTTPDate.parse(date.http) == date.seconds, "IMF-fixdate")
        #expect(HTTPDate.parse(date.asctime) == date.seconds, "asctime")
        if (1970 ... 2069).contains(date.year) { #expect(HTTPDate.parse(date.rfc850) == date.seconds, "RFC 850") }
        #expect(Timestamp(rfc3339: date.rfc3339)?.seconds == date.seconds, "RFC 3339")
    }

    @Test func cacheControlDirectives() {
        let control = CacheControl(["public, max-age=60, no-cache=\"set-cookie, foo\"", "must-revalidate"])
        #expect(control.maxAge == 60)
        #expect(control.noCache)
        #expect(control.mustRevalidate)
        #expect(!control.noStore)
        #expect(CacheControl(["NO-STORE"]).noStore)
        // The first max-age wins; a malformed one means stale, not fresh for ever.
        #expect(CacheControl(["max-age=5", "max-age=500"]).maxAge == 5)
        #expect(CacheControl(["max-age=soon"]).maxAge == 0)
        #expect(CacheControl(["max-age=\"30\""]).maxAge == 30)
        #expect(CacheControl(["max-age=99999999999999"]).maxAge == 2_147_483_648)
    }
}

@Suite("Freshness (RFC 9111 section 4.2)")
struct FreshnessTests {
    static let date: Int64 = 1_700_000_000

    func response(_ fields: [String: String], status: Int = 200, receivedAt: Int64 = date) -> CachedResponse {
        var all = fields.mapValues { [$0] }
        if all["date"] == nil { all["date"] = [HTTPDate.format(receivedAt)] }
        return CachedResponse(url: "http://example.com/a.jpg", status: status, fields: all,
                              requestTime: receivedAt * 1000, responseTime: receivedAt * 1000, body: [1, 2, 3])
    }

    @Test func maxAgeWinsOverExpires() {
        let r = response(["cache-control": "max-age=100", "expires": HTTPDate.format(Self.date + 10)])
        #expect(r.freshnessLifetime == 100)
        #expect(r.isFresh(now: (Self.date + 99) * 1000))
        #expect(!r.isFresh(now: (Self.date + 100) * 1000))
    }

    @Test func expiresCountsFromDate() {
        let r = response(["expires": HTTPDate.format(Self.date + 30)])
        #expect(r.freshnessLifetime == 30)
        #expect(response(["expires": "0"]).freshnessLifetime == 0)
        #expect(response(["expires": HTTPDate.format(Self.date - 30)]).freshnessLifetime == 0)
    }

    /// An Expires that names no real moment is invalid, so already expired (RFC 9111 section
    /// 5.3): 31 February 2026 is not 3 March, and 29 February 2025 is not 1 March.
    @Test(arguments: ["Sun, 31 Feb 2026 10:00:00 GMT", "Mon, 30 Feb 2026 10:00:00 GMT", "Sat, 29 Feb 2025 10:00:00 GMT",
                      "Tue, 03 Mar 2026 24:00:00 GMT", "Tue, 03 Mar 2026 10:60:00 GMT", "Tue, 03 Mar 2026 10:00:61 GMT"])
    func anExpiresOnNoRealDateHasExpired(expires: String) {
        let r = response(["expires": expires])
        #expect(r.freshnessLifetime == 0)
        #expect(!r.isFresh(now: Self.date * 1000))
        // The same moments that do exist are fresh until then.
        let leap = response(["expires": "Thu, 29 Feb 2024 10:00:00 GMT"])
        #expect(leap.freshnessLifetime == 1_709_200_800 - Self.date)
        #expect(leap.isFresh(now: Self.date * 1000))
    }

    @Test func heuristicIsATenthOfTheAgeCappedAtADay() {
        #expect(response(["last-modified": HTTPDate.format(Self.date - 1000)]).freshnessLifetime == 100)
        #expect(response(["last-modified": HTTPDate.format(Self.date - 100 * 86_400)]).freshnessLifetime == 86_400)
        // Not for statuses that are not cacheable by default.
        #expect(response(["last-modified": HTTPDate.format(Self.date - 1000)], status: 302).freshnessLifetime == 0)
        #expect(response([:]).freshnessLifetime == 0)
    }

    @Test func ageHeaderAndResidentTimeCount() {
        let r = response(["cache-control": "max-age=100", "age": "60"])
        #expect(r.currentAge(now: Self.date * 1000) == 60)
        #expect(r.currentAge(now: (Self.date + 30) * 1000) == 90)
        #expect(r.isFresh(now: (Self.date + 39) * 1000))
        #expect(!r.isFresh(now: (Self.date + 40) * 1000))
    }

    @Test func noCacheIsNeverFresh() {
        let r = response(["cache-control": "max-age=600, no-cache", "etag": "\"x\""])
        #expect(!r.isFresh(now: Self.date * 1000))
        #expect(r.hasValidator)
        #expect(r.isStorable)
    }

    @Test func whatMayBeStored() {
        #expect(response([:]).isStorable)
        #expect(!response(["cache-control": "no-store"]).isStorable)
        #expect(!response(["vary": "*"]).isStorable)
        #expect(response(["vary": "Accept-Encoding"]).isStorable)
        #expect(response(["location": "/b"], status: 301).isStorable)
        #expect(!response(["location": "/b"], status: 302).isStorable)
        #expect(response(["location": "/b", "cache-control": "max-age=5"], status: 307).isStorable)
        #expect(!response([:], status: 404).isStorable)
        #expect(!response([:], status: 500).isStorable)
    }

    @Test func revalidationReplacesFieldsButNotTheType() {
        var r = response(["cache-control": "max-age=0", "etag": "\"v1\"", "content-type": "image/png", "age": "5",
                          "set-cookie": "secret=1"])
        #expect(r.fields["set-cookie"] == nil, "only the fields freshness needs are kept")
        r.refresh(with: ["cache-control": ["max-age=60"], "etag": ["\"v2\""], "content-type": ["text/html"]],
                  requestTime: (Self.date + 100) * 1000, responseTime: (Self.date + 100) * 1000)
        #expect(r.cacheControl.maxAge == 60)
        #expect(r.etag == "\"v2\"")
        #expect(r.field("content-type") == "image/png")
        #expect(r.field("age") == nil)
        #expect(r.body == [1, 2, 3])
    }
}
