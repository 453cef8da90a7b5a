/// Where the PostgreSQL migrations come from: the files of `Migrations/postgresql/`, named
/// `NNNN_name.sql` like the SQLite ones and checksummed the same way.
enum PGMigrations {
    /// The PostgreSQL migrations this binary embeds (the `postgresql/` files of the embedded
    /// `Migrations/` folder).
    static let embedded: [Migration] = fromFiles(EmbeddedMigrations.files.map { ($0.path, $0.bytes) })

    /// The migrations among `files` (paths relative to `Migrations/`); files outside
    /// `postgresql/` belong to SQLite and are skipped, and a badly named file is an error at use.
    static func fromFiles(_ files: [(path: String, bytes: [UInt8])]) -> [Migration] {
        files.compactMap { file in
            guard file.path.hasPrefix("postgresql/") else { return nil }
            let name = String(file.path.dropFirst("postgresql/".count))
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard digits.count == 4, let version = Int(digits), name.hasSuffix(".sql") else { return nil }
            return Migration(version: version, name: name, sql: String(decoding: file.bytes, as: UTF8.self))
        }.sorted { $0.version < $1.version }
    }

}
