import CHTTPShim

/// IMF-fixdate formatting (RFC 9110 §5.6.7) without Foundation; called once a second per loop.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats a Unix timestamp, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(_ seconds: Int64) -> String {
        var p = [Int32](repeating: 0, count: 7)
        p.withUnsafeMutableBufferPointer { chttp_gmtime(seconds, $0.baseAddress!) }
        func two(_ v: Int32) -> String { v < 10 ? "0" + String(v) : String(v) }
        return days[Int(p[6])] + ", " + two(p[2]) + " " + months[Int(p[1] - 1)] + " " + String(p[0]) + " "
            + two(p[3]) + ":" + two(p[4]) + ":" + two(p[5]) + " GMT"
    }
}
