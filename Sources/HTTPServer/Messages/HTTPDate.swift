import SystemSupport

/// IMF-fixdate formatting (RFC 9110 §5.6.7) without Foundation; called once a second per loop.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats a Unix timestamp, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(_ seconds: Int64) -> String {
        let time = CalendarTime(utc: seconds)
        func two(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
        return days[time.weekday] + ", " + two(time.day) + " " + months[time.month - 1] + " " + String(time.year) + " "
            + two(time.hour) + ":" + two(time.minute) + ":" + two(time.second) + " GMT"
    }
}
