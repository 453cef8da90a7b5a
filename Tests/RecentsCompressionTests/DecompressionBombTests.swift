import Testing

@testable import RecentsCompression

/// A body that inflates far beyond the limit is refused after about the limit's worth of work:
/// if the decoders inflated it all, these tests would write gigabytes and never finish.
@Suite struct DecompressionBombTests {
    /// ~10 MB of gzip that inflates to 10 GiB: 10,240 copies of one member holding 1 MiB of zeros.
    static let bigBomb: [UInt8] = {
        let member = Gzip.encode([UInt8](repeating: 0, count: 1 << 20), level: 9)
        var bomb: [UInt8] = []
        bomb.reserveCapacity(member.count * 10_240)
        for _ in 0..<10_240 { bomb += member }
        return bomb
    }()

    @Test func aGzipBombIsRefusedAtTheLimit() throws {
        #expect(throws: DecompressionError.tooLarge(limit: 1 << 20)) { try Gzip.decode(Self.bigBomb, limit: 1 << 20) }
    }

    @Test func aStackedBombOfTenKilobytesIsRefusedAtTheFirstStage() throws {
        // gzip applied twice: ~10 KB on the wire, 10 GiB once both layers are undone.
        let wire = Gzip.encode(Self.bigBomb, level: 9)
        #expect(wire.count < 64 * 1024)
        let encodings = try ContentEncodings(parsing: "gzip, gzip")
        #expect(throws: DecompressionError.tooLarge(limit: 1 << 20)) { try encodings.decode(wire, limit: 1 << 20) }
    }

    @Test func aBrotliBombIsRefusedAtTheLimit() throws {
        let bomb = Brotli.encode([UInt8](repeating: 0, count: 64 << 20), quality: 5)
        #expect(bomb.count < 64 * 1024)
        #expect(throws: DecompressionError.tooLarge(limit: 1 << 20)) { try Brotli.decode(bomb, limit: 1 << 20) }
    }

    @Test func outputNeverGrowsPastTheLimitAndOneByte() {
        for limit in [0, 1, 100, OutputBuffer.step - 1, OutputBuffer.step, 3 * OutputBuffer.step + 5] {
            var output = OutputBuffer(limit: limit)
            var rooms: [Int] = []
            while !output.isOverLimit {
                output.fill { _, room in
                    rooms.append(room)
                    return room
                }
            }
            #expect(output.produced == limit + 1)
            #expect(rooms.reduce(0, +) == limit + 1)
            #expect(output.take().count == limit + 1)
        }
    }
}
