import HTTPServer

/// `Prefer: return=minimal` (RFC 7240): the client asks a write to leave out of its answer what it
/// does not need; an endpoint that honours it says so in `Preference-Applied`.
enum ReturnPreference {
    /// The header of an answer that honoured `return=minimal`.
    static let minimalApplied = ("Preference-Applied", "return=minimal")

    /// Whether any `Prefer` field of `headers` holds `return=minimal` (the name and value compared
    /// without case, the value also quoted); other preferences are ignored, as RFC 7240 asks.
    static func asksMinimal(_ headers: HTTPHeaders) -> Bool {
        headers.values(for: "Prefer").contains { field in
            field.split(separator: ",").contains { preference in
                // A preference's own parameters follow its first ';'.
                let pair = (preference.split(separator: ";").first ?? "").split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "return" else { return false }
                var value = pair[1].trimmingSpaces
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
                return value.lowercased() == "minimal"
            }
        }
    }
}

extension Exchange {
    /// Whether the request asks for `return=minimal` (see `ReturnPreference`).
    var prefersMinimalReturn: Bool { ReturnPreference.asksMinimal(request.headers) }
}
