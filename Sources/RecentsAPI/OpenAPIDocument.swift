/// The OpenAPI 3.1 document served at `/v1/openapi.json`; `docs/openapi.json` holds the same
/// bytes (a test checks), so the binary needs no file beside it.
enum OpenAPIDocument {
    /// The document's bytes.
    static let bytes: [UInt8] = Array(text.utf8)

    static let text = #"""
        {"openapi": "3.1.0", "info": {"title": "Recents", "version": "1.0.0"}, "paths": {}}
        """#
}
