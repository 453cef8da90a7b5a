import RecentsCrypto
import Testing

@Suite struct ConstantTimeTests {
    @Test func equalsComparesContentAndLength() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [0, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals(Array("abc".utf8), "abc".utf8))
    }
}

@Suite struct SecureRandomTests {
    @Test func bytesHaveTheAskedLengthAndDiffer() throws {
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first.count == 32)
        // Equal 256-bit draws would mean the generator is broken (chance 2^-256 otherwise).
        #expect(first != second)
        #expect(Set(first).count > 1)
    }

    @Test func negativeCountIsAnError() {
        #expect(throws: CryptoError.self) { try SecureRandom.bytes(count: -1) }
    }
}
