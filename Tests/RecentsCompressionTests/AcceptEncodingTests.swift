import Testing

@testable import RecentsCompression

@Suite struct AcceptEncodingTests {
    static let all: [ContentCoding] = [.identity, .gzip, .br]

    /// (field, what the server chooses among identity, gzip and br).
    @Test(
        arguments: [
            // No field: identity (we compress only for clients that ask); an empty field asks for none.
            (nil, .identity), ("", .identity), (" ", .identity),
            // Browsers.
            ("gzip, deflate, br, zstd", .br), ("gzip, deflate, br", .br), ("gzip, deflate", .gzip),
            // Ties: br > gzip > identity, whatever the order.
            ("br, gzip", .br), ("gzip, br", .br), ("identity, gzip", .gzip), ("identity", .identity),
            // Weights.
            ("gzip;q=1.0, br;q=0.9", .gzip), ("br;q=0.5, gzip;q=0.501", .gzip), ("br;q=0.001", .br),
            ("gzip;q=0.5, identity;q=0.9", .identity), ("br;q=1, identity;q=1", .br),
            // q=0 refuses.
            ("br;q=0, gzip", .gzip), ("br;q=0.000, gzip;q=0", .identity), ("gzip;q=0", .identity),
            // Wildcard: every coding not named.
            ("*", .br), ("*;q=0.5, gzip", .gzip), ("*, br;q=0", .gzip), ("*;q=0, gzip;q=0.2", .gzip),
            // Identity refused.
            ("identity;q=0", nil), ("*;q=0", nil), ("identity;q=0, *", .br), ("*;q=0, identity", .identity),
            ("br;q=0, gzip;q=0, identity;q=0", nil), ("*;q=0, identity;q=0.1, gzip;q=0.1", .gzip),
            // Names: case, x-gzip, unknown codings.
            ("GZIP", .gzip), ("X-Gzip", .gzip), ("BR;Q=0.5, gzip;q=0.4", .br), ("zstd, deflate", .identity),
            // Whitespace and empty elements.
            ("  br ; q=0.7 ,, gzip ;q = 0.8", .gzip), (",,,br,,", .br), ("\tgzip\t", .gzip),
            // Invalid weights: the element is ignored, never guessed at.
            ("br;q=2, gzip", .gzip), ("br;q=1.5", .identity), ("br;q=0.1234, gzip;q=0.1", .gzip),
            ("br;q=abc", .identity), ("br;q=, gzip;q=0.3", .gzip), ("br;q=-1", .identity), ("br;q=.5", .identity),
            ("br;q=1.001", .identity), ("identity;q=x, *;q=0", nil), ("br;level=9", .br), ("br;q", .br),
            // The first mention counts.
            ("gzip;q=0, gzip", .identity), ("br, br;q=0", .br),
        ] as [(String?, ContentCoding?)])
    func chooses(field: String?, expected: ContentCoding?) {
        #expect(AcceptEncoding(field: field).preferred(among: Self.all) == expected)
    }

    @Test func onlyAvailableCodingsAreChosen() {
        let browser = AcceptEncoding(field: "gzip, deflate, br, zstd")
        #expect(browser.preferred(among: [.identity, .gzip]) == .gzip)
        #expect(browser.preferred(among: [.identity]) == .identity)
        #expect(browser.preferred(among: []) == nil)
        #expect(AcceptEncoding(field: "br;q=0").preferred(among: [.br]) == nil)
        #expect(AcceptEncoding.absent.preferred(among: [.br, .gzip]) == nil)
    }

    @Test func weights() {
        let field = AcceptEncoding(field: "gzip;q=0.25, *;q=0.5")
        #expect(field.weight(of: .gzip) == 250)
        #expect(field.weight(of: .br) == 500)
        #expect(field.weight(of: .identity) == 500)
        #expect(AcceptEncoding(field: "gzip").weight(of: .identity) == 0)
        #expect(AcceptEncoding(field: "gzip").weight(of: .br) == nil)
        #expect(AcceptEncoding.absent.weight(of: .identity) == 1000)
        #expect(AcceptEncoding.absent.weight(of: .gzip) == nil)
        #expect(AcceptEncoding.absent.isPresent == false)
    }

    @Test func rawBytesParseLikeTheString() {
        let text = "gzip;q=0.3, br;q=0.2"
        let fromBytes = Array(text.utf8).withUnsafeBufferPointer { AcceptEncoding(bytes: $0) }
        #expect(fromBytes == AcceptEncoding(field: text))
        #expect(fromBytes.preferred(among: Self.all) == .gzip)
    }

    @Test(
        arguments: [
            ("0", 0), ("0.", 0), ("0.5", 500), ("0.05", 50), ("0.005", 5), ("0.123", 123), ("1", 1000), ("1.", 1000),
            ("1.000", 1000),
        ] as [(String, Int16)])
    func qvalues(text: String, thousandths: Int16) {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { AcceptEncoding.qvalue($0[...]) }
        #expect(parsed == thousandths)
    }

    @Test(arguments: ["", "2", "01", "0.1234", "1.1", "1.0001", "a", "0,5", " 0", "-0", "0x1"])
    func invalidQvalues(text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { AcceptEncoding.qvalue($0[...]) } == nil)
    }
}
