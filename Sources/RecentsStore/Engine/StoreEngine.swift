/// One back end's types and reads, for the store both back ends share (`ThreadedListStore`).
protocol StoreEngine: SendableMetatype {
    /// What each reader thread owns.
    associatedtype ReaderConnection
    /// The engine's `StoreReader`.
    associatedtype ReadTransaction: StoreReader & SendableMetatype
    /// The engine's `StoreWriter`.
    associatedtype WriteTransaction: StoreWriter & BatchedWriteTransaction & SendableMetatype
    /// The writer thread's objects.
    associatedtype Context: WriterContext where Context.Transaction == WriteTransaction

    /// Whether other processes may write the same database (`ListStore.isShared`).
    static var isShared: Bool { get }

    /// Runs `body` in one read transaction on `connection`; failures come back as they leave
    /// the store (engine errors as `StoreError`s).
    static func read<T>(
        on connection: ReaderConnection, retainVersions: Int, _ body: (ReadTransaction) throws -> T
    ) -> Result<T, any Error>

    /// Whether a trivial query answers, inside a read transaction.
    static func ping(_ transaction: ReadTransaction) throws -> Bool
}

extension StoreConfiguration {
    /// Refuses settings no back end can run with.
    /// - Throws: `StoreError.invalidConfiguration`.
    func validate() throws {
        guard readers >= 1 else { throw StoreError.invalidConfiguration("readers must be ≥ 1") }
        guard writers >= 1 else { throw StoreError.invalidConfiguration("writers must be ≥ 1") }
        guard retainVersions >= 0 else { throw StoreError.invalidConfiguration("retainVersions must be ≥ 0") }
    }
}
