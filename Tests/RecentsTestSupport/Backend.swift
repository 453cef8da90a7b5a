import Foundation
import Testing

/// The storage back ends the store and end-to-end suites run against: SQLite always, PostgreSQL
/// when `RECENTS_TEST_POSTGRES_URL` names a server (CI starts one with scripts/postgres-cluster.sh).
public enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    /// The server the PostgreSQL half uses, from the environment.
    public static let postgresURL = ProcessInfo.processInfo.environment["RECENTS_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The back ends to test here; says once (per test process) when the PostgreSQL half is skipped.
    public static let available: [Backend] = {
        guard postgresURL != nil else {
            print("RECENTS_TEST_POSTGRES_URL is not set; the PostgreSQL half of the store and API tests is skipped")
            return [.sqlite]
        }
        return [.sqlite, .postgresql]
    }()

    /// The back end's name in test results, e.g. `(backend: postgresql)`.
    public var testDescription: String { rawValue }

    /// A fresh schema name for one test: hex digits only, since an identifier cannot be bound as a
    /// value and is spliced into `CREATE SCHEMA`.
    public static func newSchemaName() -> String {
        "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// `url` with `schema` first on the search path of every connection opened with it, so that a
    /// store (and every instance sharing the URI) lives in that schema alone: tables, epoch and
    /// therefore the notification channel, which is named after the epoch.
    public static func uri(_ url: String, schema: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }
}
