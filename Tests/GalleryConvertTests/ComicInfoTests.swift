import GalleryConvert
import Testing

@Suite("Conversion: ComicInfo.xml")
struct ComicInfoTests {
    @Test func aRenderedFileReadsBackWithItsTitleAndPages() throws {
        let title = "Night & <Day> \"one\" 'two' \u{1}"
        let bytes = ComicInfo.render(title: title, pages: [(10, 20, 300), (30, 40, 500)])
        let info = try ComicInfo.parse(bytes)
        #expect(info.title == "Night & <Day> \"one\" 'two' \u{FFFD}")
        #expect(info.pages.map(\.image) == [0, 1])
        #expect(info.pages.first?.type == "FrontCover")
    }

    @Test func entitiesAndCharacterReferencesAreDecoded() throws {
        let info = try ComicInfo.parse(Array("<ComicInfo><Series>A &amp; B &#233;t&#xE9;</Series><Number>7</Number></ComicInfo>".utf8))
        #expect(info.galleryTitle == "A & B été #7")
    }

    /// No DTD is read, so no entity can expand.
    @Test(arguments: [
        "<!DOCTYPE x [<!ENTITY a \"aaaa\">]><ComicInfo><Title>&a;</Title></ComicInfo>",
        "<ComicInfo><Title>&unknown;</Title></ComicInfo>",
        "<ComicInfo><Title>a & b</Title></ComicInfo>",
        "<ComicInfo><Page Image=0/></ComicInfo>",
    ])
    func whatIsNotPlainXMLIsRefused(_ text: String) {
        #expect(throws: ComicInfo.ParseError.self) { try ComicInfo.parse(Array(text.utf8)) }
    }

    @Test func aMissingTitleFallsBackToTheSeries() throws {
        #expect(try ComicInfo.parse(Array("<ComicInfo><Series>Saga</Series></ComicInfo>".utf8)).galleryTitle == "Saga")
        #expect(try ComicInfo.parse(Array("<ComicInfo/>".utf8)).galleryTitle == nil)
    }
}
