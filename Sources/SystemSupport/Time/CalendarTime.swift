import Glibc

/// A Unix second broken down in UTC (`gmtime_r`), for the timestamps of log lines and the
/// `Date` header; no time zones, no Foundation.
public struct CalendarTime: Sendable, Equatable {
    /// The year, e.g. 2026.
    public var year: Int
    /// 1 to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int
    /// 0 to 23.
    public var hour: Int
    /// 0 to 59.
    public var minute: Int
    /// 0 to 60 (a leap second).
    public var second: Int
    /// 0 (Sunday) to 6.
    public var weekday: Int

    /// The UTC calendar time of `seconds` since the Unix epoch.
    public init(utc seconds: Int64) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        weekday = Int(parts.tm_wday)
    }
}
