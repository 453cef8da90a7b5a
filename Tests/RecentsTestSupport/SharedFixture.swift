import Foundation

/// The file `name` of Tests/Fixtures: fixtures several test targets read (and the web page's and
/// scripts' tests too), such as gesture-decisions.json and contract-row.json.
public func sharedFixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/\(name)")
        .standardized
}
