import RecentsAPI
import RecentsCore

extension DemoHistory {
    /// `{"calls": [...]}`, the body of one batch post, each call in the wire form the API reads and writes.
    static func json(_ calls: ArraySlice<Call>) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 * calls.count + 16)
        writer.raw("{")
        writer.key("calls")
        writer.array(calls) { $0.call($1) }
        writer.raw("}")
        return writer.bytes
    }
}
