/// A finished horizontal swipe on a row, as the client reports it on release.
///
/// Offsets and velocity are in points and points per second; negative means toward the
/// left, which reveals the right-side options (Telegram's `ItemListRevealOptionsItemNode`).
public struct Gesture: Codable, Sendable, Hashable {
    /// The row's reveal offset when the pan began (0 when it was closed).
    public var initialOffset: Double
    /// The row's reveal offset at release.
    public var offset: Double
    /// The horizontal velocity at release.
    public var velocity: Double
    /// The width of one option button; Telegram's default is 74 points.
    public var buttonWidth: Double

    /// Telegram's option-button width.
    public static let defaultButtonWidth: Double = GestureRule.telegram.buttonWidth

    /// Creates a gesture.
    public init(
        initialOffset: Double, offset: Double, velocity: Double, buttonWidth: Double = Gesture.defaultButtonWidth
    ) {
        self.initialOffset = initialOffset
        self.offset = offset
        self.velocity = velocity
        self.buttonWidth = buttonWidth
    }

    enum CodingKeys: String, CodingKey {
        case initialOffset, offset, velocity, buttonWidth
    }

    /// Decodes a gesture; `buttonWidth` may be omitted and defaults to 74.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        initialOffset = try container.decode(Double.self, forKey: .initialOffset)
        offset = try container.decode(Double.self, forKey: .offset)
        velocity = try container.decode(Double.self, forKey: .velocity)
        buttonWidth = try container.decodeIfPresent(Double.self, forKey: .buttonWidth) ?? Gesture.defaultButtonWidth
    }

    /// Every rule this gesture breaks, named by JSON member; empty when valid.
    public func validationErrors() -> [FieldError] {
        var errors: [FieldError] = []
        func check(_ value: Double, _ field: String, limit: Double) {
            if !value.isFinite {
                errors.append(FieldError(field: field, message: "must be a finite number"))
            } else if abs(value) > limit {
                errors.append(FieldError(field: field, message: "must be at most \(Int(limit)) in absolute value"))
            }
        }
        check(initialOffset, "initialOffset", limit: 100_000)
        check(offset, "offset", limit: 100_000)
        check(velocity, "velocity", limit: 1_000_000)
        if !buttonWidth.isFinite {
            errors.append(FieldError(field: "buttonWidth", message: "must be a finite number"))
        } else if !(buttonWidth > 0 && buttonWidth <= 10_000) {
            errors.append(FieldError(field: "buttonWidth", message: "must be greater than 0 and at most 10000"))
        }
        return errors
    }

    /// Decides what the release does with `optionCount` right-side options, as Telegram's pan end does.
    ///
    /// A slow release (|velocity| < 100) opens when the swipe started closed and moved left, or
    /// went past the options' width; a fast one follows the fling direction. Pulling beyond the
    /// options by more than a button (or 16 points with more than two options) selects the
    /// outermost option, like Telegram's full-swipe delete. The numbers are `rule`'s.
    public func decide(optionCount: Int, rule: GestureRule = .telegram) -> GestureDecision {
        guard optionCount > 0 else { return GestureDecision(outcome: .closed, selectedOptionIndex: nil, offset: 0) }
        let width = buttonWidth * Double(optionCount)
        let reveal: Bool
        if abs(velocity) < rule.slowVelocity {
            reveal = (initialOffset == 0 && offset < 0) || offset < -width
        } else {
            reveal = velocity < 0
        }
        let threshold =
            optionCount <= rule.buttonMarginMaxOptions ? width + buttonWidth : width + rule.fullSwipeMargin
        if reveal && abs(offset) > threshold {
            return GestureDecision(outcome: .selected, selectedOptionIndex: optionCount - 1, offset: 0)
        }
        if reveal { return GestureDecision(outcome: .open, selectedOptionIndex: nil, offset: -width) }
        return GestureDecision(outcome: .closed, selectedOptionIndex: nil, offset: 0)
    }
}
