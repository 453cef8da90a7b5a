/// An HTTP request method, kept as its exact (case-sensitive, RFC 9110 §9.1) token.
public struct HTTPMethod: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The method token as sent on the wire.
    public let rawValue: String

    /// Wraps a method token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `GET`.
    public static let GET = HTTPMethod("GET")
    /// `HEAD`.
    public static let HEAD = HTTPMethod("HEAD")
    /// `POST`.
    public static let POST = HTTPMethod("POST")
    /// `PUT`.
    public static let PUT = HTTPMethod("PUT")
    /// `DELETE`.
    public static let DELETE = HTTPMethod("DELETE")
    /// `OPTIONS`.
    public static let OPTIONS = HTTPMethod("OPTIONS")
    /// `PATCH`.
    public static let PATCH = HTTPMethod("PATCH")

    /// The method token.
    public var description: String { rawValue }

    /// Orders methods by their token, for a stable `Allow` header.
    public static func < (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Interns the common methods so parsing them allocates no new string.
    static func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPMethod {
        switch bytes.count {
        case 3:
            if bytes[0] == 0x47 && bytes[1] == 0x45 && bytes[2] == 0x54 { return .GET }
            if bytes[0] == 0x50 && bytes[1] == 0x55 && bytes[2] == 0x54 { return .PUT }
        case 4:
            if bytes[0] == 0x50 && bytes[1] == 0x4F && bytes[2] == 0x53 && bytes[3] == 0x54 { return .POST }
            if bytes[0] == 0x48 && bytes[1] == 0x45 && bytes[2] == 0x41 && bytes[3] == 0x44 { return .HEAD }
        default: break
        }
        return HTTPMethod(String(decoding: bytes, as: UTF8.self))
    }
}
