import Foundation
import GalleryConvert
import GalleryTestSupport
import Testing

// The pure decoder of the seed apps' JSON (Specs/seed-json.md): both forms as Codable writes
// them, what it tolerates, and what it refuses, always with the JSON pointer of the value.

private func decode(_ text: String, path: String = "input.json", limits: SeedJSON.Limits = .default) throws -> SeedJSON.Document {
    try SeedJSON.decodeDocument(Array(text.utf8), path: path, limits: limits)
}

private func fixture(_ name: String) throws -> SeedJSON.Document {
    try SeedJSON.read(path: TestPaths.fixture("seed-json/" + name))
}

@Suite("Seed JSON: the two forms")
struct SeedJSONFormTests {
    @Test func aSingleGalleryKeepsTitleOrderURLsAndRatios() throws {
        let document = try fixture("gallery.json")
        #expect(document.form == .gallery)
        #expect(document.galleries.count == 1)
        let gallery = try #require(document.galleries.first)
        #expect(gallery.title == "Trip")
        #expect(gallery.hasTitle)
        #expect(gallery.pointer == "")
        // JSONEncoder escapes "/" as "\/": the URLs come back whole.
        #expect(gallery.images.map(\.url) == ["1-sunset.jpg", "3-lighthouse.jpg", "2-tiles.png"].map { "http://example.invalid/images/" + $0 })
        #expect(gallery.images.map(\.aspectRatio) == [1.3333333333333333, 0.75, 1.3333333333333333])
        #expect(gallery.images.map(\.pointer) == ["/images/0", "/images/1", "/images/2"])
    }

    @Test func aStoreArrayGivesEveryGalleryInOrder() throws {
        let document = try fixture("store.json")
        #expect(document.form == .store)
        #expect(document.galleries.map(\.title) == ["Trip", "Trip", "Patterns / tiles"])
        #expect(document.galleries.map(\.images.count) == [2, 1, 0])
        #expect(document.galleries.map(\.pointer) == ["/0", "/1", "/2"])
        // An integral ratio, as JSONEncoder writes 1.0.
        #expect(document.galleries[1].images.first?.aspectRatio == 1)
        #expect(document.galleries[1].images.first?.pointer == "/1/images/0")
        #expect(try SeedJSON.decode(try FileBytes.read(TestPaths.fixture("seed-json/store.json")), path: "store.json").count == 3)
    }

    @Test func aStoreObjectHoldsItsGalleriesUnderGalleries() throws {
        let document = try fixture("store-object.json")
        #expect(document.form == .store)
        #expect(document.galleries.map(\.title) == ["Sea", "Shapes"])
        #expect(document.galleries.map(\.pointer) == ["/galleries/0", "/galleries/1"])
        #expect(document.galleries[1].images.first?.url == "https://example.invalid/images/7-quilt-palette.png")
    }

    /// The seeds' model as a Swift app would declare it, encoded by Foundation's JSONEncoder:
    /// what the importer reads must be exactly what Codable writes.
    struct CodableImage: Codable { var url: URL; var aspectRatio: Double }
    struct CodableGallery: Codable { var title: String; var images: [CodableImage] }
    struct CodableStore: Codable { var galleries: [CodableGallery] }

    @Test func whatJSONEncoderWritesIsRead() throws {
        let trip = CodableGallery(title: "Trip · été", images: [
            CodableImage(url: URL(string: "https://example.invalid/a%20b/1.jpg?size=large&x=%2F")!, aspectRatio: 4.0 / 3.0),
            CodableImage(url: URL(string: "http://example.invalid:8080/2.png")!, aspectRatio: 0.5625),
        ])
        let empty = CodableGallery(title: "", images: [])
        let encoder = JSONEncoder()
        for formatting in [JSONEncoder.OutputFormatting(), [.prettyPrinted, .sortedKeys]] {
            encoder.outputFormatting = formatting
            let single = try SeedJSON.decodeDocument(Array(try encoder.encode(trip)), path: "trip.json")
            #expect(single.form == .gallery)
            #expect(single.galleries.first?.title == trip.title)
            #expect(single.galleries.first?.images.map(\.url) == trip.images.map(\.url.absoluteString))
            #expect(single.galleries.first?.images.map(\.aspectRatio) == trip.images.map(\.aspectRatio))

            for bytes in [try encoder.encode([trip, empty]), try encoder.encode(CodableStore(galleries: [trip, empty]))] {
                let store = try SeedJSON.decodeDocument(Array(bytes), path: "store.json")
                #expect(store.form == .store)
                #expect(store.galleries.map(\.title) == [trip.title, ""])
                #expect(store.galleries.map(\.images.count) == [2, 0])
            }
        }
    }
}

@Suite("Seed JSON: what is tolerated")
struct SeedJSONToleranceTests {
    @Test func unknownMembersNullsTheSeedsImagePathAndAByteOrderMark() throws {
        let document = try fixture("unknown-keys.json")
        #expect(document.form == .gallery)
        let gallery = try #require(document.galleries.first)
        // "title": null is no title: the file's name stands in, as the seed's document's name did.
        #expect(gallery.title == "unknown-keys")
        #expect(!gallery.hasTitle)
        #expect(gallery.images.map(\.url) == [
            "http://example.invalid/images/5-balloon-rotated.jpg",
            "http://example.invalid/images/caf%C3%A9.jpg#first",
            "http://example.invalid/images/10-fractal.jpg",
        ])
        #expect(gallery.images.map(\.aspectRatio) == [0.6666666666666666, nil, nil])
    }

    @Test func galleriesOfAStoreWithoutTitlesAreNamedAfterTheFileAndPosition() throws {
        let document = try decode(#"[{"images":[]},{"title":"Kept","images":[]},{"title":null,"images":[]}]"#, path: "/tmp/old/Galleries.JSON")
        #expect(document.galleries.map(\.title) == ["Galleries 1", "Kept", "Galleries 3"])
        #expect(document.galleries.map(\.hasTitle) == [false, true, false])
    }

    @Test func anEmptyStoreAndAnEmptyGalleryAreValid() throws {
        #expect(try decode("[]").galleries.isEmpty)
        #expect(try decode(#"{"galleries": []}"#).form == .store)
        let empty = try decode(#" {"images": [], "title": "Nothing yet"} "#)
        #expect(empty.form == .gallery)
        #expect(empty.galleries.first?.images.isEmpty == true)
    }

    @Test func membersMayComeInAnyOrderAndTheSameURLTwice() throws {
        let document = try decode(#"{"images":[{"aspectRatio":2,"url":"http://a.invalid/x.jpg"},{"url":"http://a.invalid/x.jpg","imagePath":"http://a.invalid/x.jpg"}],"title":"T"}"#)
        #expect(document.galleries.first?.images.map(\.url) == ["http://a.invalid/x.jpg", "http://a.invalid/x.jpg"])
        #expect(document.galleries.first?.images.first?.aspectRatio == 2)
    }

    @Test func nestingUpToTheLimitInAnUnknownMemberIsRead() throws {
        // 64 levels in all: the object itself, then 63 arrays.
        let deep = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        #expect(try decode(#"{"images":[],"extra":"# + deep + "}").form == .gallery)
    }
}

/// An input that must be refused: the pointer the error must name (nil: the whole document)
/// and a phrase of its message.
struct SeedRefusal: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var pointer: String?
    var phrase: String

    var testDescription: String { name }

    static let all: [SeedRefusal] = [
        SeedRefusal(name: "empty", json: "  ", pointer: nil, phrase: "is empty"),
        SeedRefusal(name: "a scalar", json: "42", pointer: nil, phrase: "must be an object or an array"),
        SeedRefusal(name: "neither form", json: #"{"title":"T"}"#, pointer: nil, phrase: "neither a gallery"),
        SeedRefusal(name: "both forms", json: #"{"images":[],"galleries":[]}"#, pointer: nil, phrase: "has both"),
        SeedRefusal(name: "content after the value", json: #"{"images":[]} {}"#, pointer: nil, phrase: "after the end of the JSON value"),
        SeedRefusal(name: "trailing comma", json: #"{"images":[{"url":"http://a.invalid/1.jpg"},]}"#,
                    pointer: "/images/1", phrase: "trailing comma"),
        SeedRefusal(name: "images not an array", json: #"{"images":{"url":"http://a.invalid/1.jpg"}}"#,
                    pointer: "/images", phrase: "must be an array of images"),
        SeedRefusal(name: "galleries not an array", json: #"{"galleries":{}}"#, pointer: "/galleries", phrase: "array of galleries"),
        SeedRefusal(name: "a gallery that is not an object", json: #"[{"images":[]}, "Trip"]"#, pointer: "/1", phrase: "gallery object"),
        SeedRefusal(name: "a gallery without images", json: #"[{"title":"T"}]"#, pointer: "/0", phrase: "must have an \"images\""),
        SeedRefusal(name: "title a number", json: #"{"title":7,"images":[]}"#, pointer: "/title", phrase: "string or null"),
        SeedRefusal(name: "title with NUL", json: #"{"title":"a\u0000b","images":[]}"#, pointer: "/title", phrase: "U+0000"),
        SeedRefusal(name: "title too long", json: #"{"title":""# + String(repeating: "é", count: 1001) + #"","images":[]}"#,
                    pointer: "/title", phrase: "longer than 1000"),
        SeedRefusal(name: "image without url", json: #"{"images":[{"aspectRatio":1}]}"#, pointer: "/images/0", phrase: "must have a \"url\""),
        SeedRefusal(name: "url not a string", json: #"{"images":[{"url":{"relative":"x"}}]}"#, pointer: "/images/0/url", phrase: "URL string"),
        SeedRefusal(name: "url with a space", json: #"[{"images":[{"url":"http://exa mple.invalid/1.jpg"}]}]"#,
                    pointer: "/0/images/0/url", phrase: "not a valid absolute URL"),
        SeedRefusal(name: "url relative", json: #"{"images":[{"url":"images/1.jpg"}]}"#, pointer: "/images/0/url", phrase: "not a valid absolute URL"),
        SeedRefusal(name: "url not ASCII", json: #"{"images":[{"url":"http://example.invalid/café.jpg"}]}"#,
                    pointer: "/images/0/url", phrase: "not a valid absolute URL"),
        SeedRefusal(name: "url and imagePath differ",
                    json: #"{"images":[{"url":"http://a.invalid/1.jpg","imagePath":"http://a.invalid/2.jpg"}]}"#,
                    pointer: "/images/0", phrase: "differ"),
        SeedRefusal(name: "aspectRatio a string", json: #"{"images":[{"url":"http://a.invalid/1.jpg","aspectRatio":"4:3"}]}"#,
                    pointer: "/images/0/aspectRatio", phrase: "must be a number"),
        SeedRefusal(name: "aspectRatio zero", json: #"{"images":[{"url":"http://a.invalid/1.jpg","aspectRatio":0}]}"#,
                    pointer: "/images/0/aspectRatio", phrase: "not a positive"),
        SeedRefusal(name: "aspectRatio negative", json: #"{"images":[{"url":"http://a.invalid/1.jpg","aspectRatio":-1.5}]}"#,
                    pointer: "/images/0/aspectRatio", phrase: "not a positive"),
        SeedRefusal(name: "aspectRatio huge", json: #"{"images":[{"url":"http://a.invalid/1.jpg","aspectRatio":1e400}]}"#,
                    pointer: "/images/0/aspectRatio", phrase: "out of range"),
        SeedRefusal(name: "duplicate member", json: #"{"title":"A","images":[],"title":"B"}"#, pointer: "/title", phrase: "twice"),
        SeedRefusal(name: "duplicate member, escaped", json: #"{"images":[{"url":"http://a.invalid/1.jpg","u\u0072l":"http://a.invalid/1.jpg"}]}"#,
                    pointer: "/images/0/url", phrase: "twice"),
        SeedRefusal(name: "number with a leading zero", json: #"{"images":[],"n":01}"#, pointer: "/n", phrase: "leading zeros"),
        SeedRefusal(name: "number without fraction digits", json: #"{"images":[],"n":1.}"#, pointer: "/n", phrase: "fraction"),
        SeedRefusal(name: "a bare word", json: #"{"images":[],"n":nope}"#, pointer: "/n", phrase: "invalid literal"),
        SeedRefusal(name: "trailing comma in an object", json: #"{"images":[{"url":"http://a.invalid/1.jpg",}]}"#,
                    pointer: "/images/0", phrase: "trailing comma"),
        SeedRefusal(name: "single quotes", json: #"{'images':[]}"#, pointer: nil, phrase: "quoted key"),
        SeedRefusal(name: "lone surrogate", json: #"{"images":[],"s":"\ud800x"}"#, pointer: "/s", phrase: "high surrogate"),
        SeedRefusal(name: "raw control character", json: "{\"images\":[],\"s\":\"a\u{1}b\"}", pointer: "/s", phrase: "control character"),
        SeedRefusal(name: "invalid escape", json: #"{"images":[],"s":"\x41"}"#, pointer: "/s", phrase: "invalid escape"),
        SeedRefusal(name: "unterminated string", json: #"{"images":[],"s":"abc"#, pointer: "/s", phrase: "not closed"),
        SeedRefusal(name: "too deep", json: #"{"images":[],"deep":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}",
                    pointer: "/deep" + String(repeating: "/0", count: 63), phrase: "deeper than 64"),
        SeedRefusal(name: "pointer escapes ~ and /", json: #"{"images":[],"a/b~c":{"x":tru}}"#, pointer: "/a~1b~0c/x", phrase: "invalid literal"),
    ]
}

@Suite("Seed JSON: what is refused")
struct SeedJSONRefusalTests {
    @Test(arguments: SeedRefusal.all)
    func refusedWithItsPointer(_ refusal: SeedRefusal) {
        do {
            let document = try decode(refusal.json, path: "bad.json")
            Issue.record("accepted: \(document)")
        } catch let error as ConversionError {
            #expect(error.path == "bad.json")
            #expect(error.entry == refusal.pointer, "\(error)")
            #expect(error.message.contains(refusal.phrase), "\(error)")
            #expect(error.message.contains("line "), "\(error)")
            if let pointer = refusal.pointer { #expect(error.description.hasPrefix("bad.json: \(pointer): "), "\(error)") }
        } catch {
            Issue.record("not a ConversionError: \(error)")
        }
    }

    @Test func theMalformedFixturesNameTheirPlace() throws {
        let comma = #expect(throws: ConversionError.self) { try fixture("malformed-trailing-comma.json") }
        #expect(comma?.entry == "/images/1")
        #expect(comma?.message.contains("trailing comma") == true)
        #expect(comma?.message.contains("line 5, column 3") == true, "\(String(describing: comma))")
        let ratio = #expect(throws: ConversionError.self) { try fixture("malformed-aspect-ratio.json") }
        #expect(ratio?.entry == "/1/images/0/aspectRatio")
        #expect(ratio?.message.contains("line 3") == true, "\(String(describing: ratio))")
    }

    @Test func bytesThatAreNotUTF8AreRefusedWhereTheyStart() {
        var bytes = Array(#"{"images":[],"s":"ab"#.utf8)
        bytes += [0xC0, 0xAF] + Array(#""}"#.utf8)
        let error = #expect(throws: ConversionError.self) { try SeedJSON.decode(bytes, path: "latin.json") }
        #expect(error?.message.contains("not UTF-8") == true)
        #expect(error?.message.contains("column 21") == true, "\(String(describing: error))")
        // An encoded surrogate is not UTF-8 either.
        #expect(throws: ConversionError.self) { try SeedJSON.decode(Array(#"{"images":[],"s":""#.utf8) + [0xED, 0xA0, 0x80, 0x22, 0x7D], path: "x") }
    }

    @Test func veryDeepNestingIsRefusedWithoutExhaustingTheStack() {
        let hostile = #"{"images":[],"x":"# + String(repeating: "[", count: 1_000_000)
        let error = #expect(throws: ConversionError.self) { try decode(hostile) }
        #expect(error?.message.contains("deeper than 64") == true)
    }

    @Test func theLimitsAreEnforced() throws {
        var limits = SeedJSON.Limits()
        limits.maxBytes = 20
        let big = #expect(throws: ConversionError.self) { try decode(#"{"images":[], "pad": "123456789"}"#, limits: limits) }
        #expect(big?.entry == nil)
        #expect(big?.message.contains("larger than 20 bytes") == true)

        limits = SeedJSON.Limits()
        limits.maxGalleries = 2
        #expect(try decode(#"[{"images":[]},{"images":[]}]"#, limits: limits).galleries.count == 2)
        let many = #expect(throws: ConversionError.self) { try decode(#"[{"images":[]},{"images":[]},{"images":[]}]"#, limits: limits) }
        #expect(many?.entry == "/2")

        limits = SeedJSON.Limits()
        limits.maxImages = 2
        let image = #"{"url":"http://a.invalid/1.jpg"}"#
        #expect(try decode(#"[{"images":["# + image + "]},{\"images\":[" + image + "]}]", limits: limits).galleries.count == 2)
        // The bound is on all galleries together: one fetch batch.
        let total = #expect(throws: ConversionError.self) {
            try decode(#"[{"images":["# + image + "," + image + "]},{\"images\":[" + image + "]}]", limits: limits)
        }
        #expect(total?.entry == "/1/images/0")
    }

    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("huge.json")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(SeedJSON.Limits.default.maxBytes) + 1)
        try handle.close()
        let error = #expect(throws: ConversionError.self) { try SeedJSON.read(path: path) }
        #expect(error?.message.contains("larger than") == true)
    }
}

@Suite("Seed JSON: output names and the aspect-ratio check")
struct SeedJSONNamingTests {
    @Test func titlesBecomeSafeUniqueFileNames() {
        let long = String(repeating: "ö", count: 150)
        let names = SeedJSON.fileNames(for: ["Trip", "Trip", "trip", "a/b\\c", "", "..", ".hidden", "  Spaced \t", "x\u{0}y\u{85}z", long, "Trip 2"])
        #expect(Array(names.prefix(10)) == [
            "Trip.imagegallery", "Trip 2.imagegallery", "trip 3.imagegallery", "a_b_c.imagegallery", "Gallery 5.imagegallery",
            "Gallery 6.imagegallery", "hidden.imagegallery", "Spaced.imagegallery", "x_y_z.imagegallery",
            String(repeating: "ö", count: 100) + ".imagegallery",
        ])
        // A title that is already "Trip 2" after a second "Trip" gets the next free number.
        #expect(names[10] == "Trip 2 2.imagegallery")
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
        #expect(names.allSatisfy { $0.utf8.count <= 255 && !$0.contains("/") && !$0.hasPrefix(".") })
    }

    @Test func theAspectRatioAgreesWithinOnePercentEitherWayRound() {
        #expect(SeedJSON.aspectRatio(4.0 / 3.0, agreesWith: 800, 600))
        #expect(SeedJSON.aspectRatio(1.34, agreesWith: 800, 600))
        #expect(!SeedJSON.aspectRatio(1.35, agreesWith: 800, 600))
        #expect(!SeedJSON.aspectRatio(1.0, agreesWith: 800, 600))
        // Of the image as shown: an EXIF-rotated image's ratio is its header's turned a quarter.
        #expect(SeedJSON.aspectRatio(320.0 / 480.0, agreesWith: 480, 320))
        #expect(SeedJSON.aspectRatio(0.75, agreesWith: 800, 600))
        #expect(!SeedJSON.aspectRatio(0.7, agreesWith: 800, 600))
        #expect(!SeedJSON.aspectRatio(.nan, agreesWith: 800, 600))
    }
}
