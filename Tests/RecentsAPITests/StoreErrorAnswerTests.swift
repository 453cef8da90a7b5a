import RecentsStore
import Testing

@testable import RecentsAPI

/// How a store failure becomes an answer (`APIError+Store`): storage faults are 503 with a
/// `Retry-After` that fits how soon a retry can land.
@Suite struct StoreErrorAnswerTests {
    @Test func aDiskThatIsFullIsToldToWaitFiveSeconds() throws {
        let answer = try #require(APIError(StoreError.full("disk full")))
        #expect(answer.status == 503 && answer.type == "storage-unavailable")
        #expect(answer.headers.first { $0.0 == "Retry-After" }?.1 == "5")
    }

    @Test func aDatabaseServerThatIsAwayIsRetriedInASecond() throws {
        let answer = try #require(APIError(StoreError.unavailable("the database does not answer")))
        #expect(answer.status == 503 && answer.type == "storage-unavailable")
        #expect(answer.headers.first { $0.0 == "Retry-After" }?.1 == "1")
        #expect(answer.detail.hasPrefix("the database does not answer"))
    }

    @Test func aBusyDatabaseIsOverloadedAndAnEngineFaultIsNoClientsBusiness() {
        #expect(APIError(StoreError.busy("locked"))?.type == "overloaded")
        #expect(APIError(StoreError.engine("bug")) == nil)
    }
}
