import RecentsCompression
import Testing

@testable import RecentsAPI
@testable import RecentsStore

/// The embedder's coded copies of the files served over HTTP (issue 23): each decodes to the file
/// exactly, exists only when smaller, and has its own strong ETag.
@Suite struct EmbeddedPrecompressionTests {
    static var served: [RecentsAPI.EmbeddedFile] { EmbeddedWeb.files + [EmbeddedOpenAPI.file] }

    @Test func eachCopyDecodesToTheFileAndIsSmaller() throws {
        for file in Self.served {
            if let gzip = file.gzip {
                #expect(gzip.bytes.count < file.bytes.count, "\(file.path)")
                #expect(try Gzip.decode(gzip.bytes, limit: file.bytes.count) == file.bytes, "\(file.path)")
            }
            if let br = file.br {
                #expect(br.bytes.count < file.bytes.count, "\(file.path)")
                #expect(try Brotli.decode(br.bytes, limit: file.bytes.count) == file.bytes, "\(file.path)")
            }
        }
    }

    @Test func aCopyIsLeftOutOnlyWhenItWouldNotBeSmaller() {
        for file in Self.served {
            if file.gzip == nil { #expect(Gzip.encode(file.bytes, level: 9).count >= file.bytes.count, "\(file.path)") }
            if file.br == nil { #expect(Brotli.encode(file.bytes).count >= file.bytes.count, "\(file.path)") }
        }
        // The scripts and the document are text of several KB: both copies are there.
        #expect(EmbeddedOpenAPI.file.gzip != nil && EmbeddedOpenAPI.file.br != nil)
        #expect(EmbeddedWeb.file(at: "app.js")?.br != nil)
    }

    @Test func everyRepresentationHasItsOwnStrongETag() {
        for file in Self.served {
            let tags = [file.etag, file.gzip?.etag, file.br?.etag].compactMap { $0 }
            #expect(Set(tags).count == tags.count, "\(file.path)")
            #expect(tags.allSatisfy { $0.hasPrefix("\"") && $0.hasSuffix("\"") && !$0.hasPrefix("W/") })
            if let gzip = file.gzip { #expect(gzip.etag == String(file.etag.dropLast()) + "-gz\"") }
            if let br = file.br { #expect(br.etag == String(file.etag.dropLast()) + "-br\"") }
        }
    }

    @Test func migrationsAreNotPrecompressed() {
        // Only sets served over HTTP carry copies; the store's migrations are read, never sent.
        #expect(!EmbeddedMigrations.files.isEmpty)
        #expect(EmbeddedMigrations.files.allSatisfy { $0.gzip == nil && $0.br == nil })
    }
}
