import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// The server's rendering of the first rows is the page's, byte for byte: both are tested on
/// Tests/Fixtures/rows-markup.json, which the page's own code (Web/row-markup.js) writes.
@Suite struct RowMarkupTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            var name: String
            var tz: Int
            var row: Row
            var html: String
        }
        struct List: Decodable {
            var name: String
            var tz: Int
            var editing: Bool
            var rows: [Row]
            var html: String
        }
        var now: Int64
        var buttonWidth: Double
        var cases: [Case]
        var list: List
    }

    static let fixture: Fixture = {
        do {
            return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: sharedFixture("rows-markup.json")))
        } catch {
            fatalError("Tests/Fixtures/rows-markup.json: \(error)")
        }
    }()

    @Test(arguments: fixture.cases.map(\.name))
    func eachRowIsWrittenAsThePageWritesIt(name: String) throws {
        let example = try #require(Self.fixture.cases.first { $0.name == name })
        let html = RowMarkup.row(
            example.row, tz: example.tz, now: Self.fixture.now, buttonWidth: Self.fixture.buttonWidth)
        #expect(html == example.html)
    }

    @Test func theListIsWrittenAsThePageWritesIt() {
        let list = Self.fixture.list
        let html = RowMarkup.list(
            list.rows, editing: list.editing, tz: list.tz, now: Self.fixture.now, buttonWidth: Self.fixture.buttonWidth)
        #expect(html == list.html)
    }

    @Test func initialsFollowJavaScriptsWordsAndUpperCase() {
        #expect(RowText.initials("  bob  lee ") == "BL")
        #expect(RowText.initials("straße") == "S")
        #expect(RowText.initials("ßeta") == "SS")
        #expect(RowText.initials("\u{3000}") == "?")
        #expect(RowText.initials("a\u{85}b") == "A")  // U+0085 is not a space to JavaScript
    }
}
