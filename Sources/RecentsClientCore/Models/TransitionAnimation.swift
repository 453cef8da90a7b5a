import RecentsCore

/// A row animation, named after `UITableView.RowAnimation`'s cases.
public enum RowAnimationStyle: String, Sendable, Hashable, CaseIterable {
    /// No animation (`.none`).
    case none
    /// Fade in or out (`.fade`).
    case fade
    /// Slide in from the top, pushing rows down (`.top`).
    case top
}

/// How to animate a transition, derived from its `reason`, `options` and `directionHint`s as data.
///
/// `initial` and `reload` are not animated; `reloadAnimated` (a tab switch) crossfades the whole
/// list; `interactiveChanges` fades deletions and reloads and slides inserts hinted `down` in
/// from the top, unless the options ask for a synchronous, unanimated change (the old view was empty).
public struct TransitionAnimation: Sendable, Hashable {
    /// Whether to animate at all (`performBatchUpdates` inside `UIView.performWithoutAnimation` when false).
    public var animated: Bool
    /// Whether to crossfade the whole list (`UIView.transition(with:options: .transitionCrossDissolve)`).
    public var crossfade: Bool
    /// The animation of deleted rows.
    public var deletion: RowAnimationStyle
    /// The animation of reloaded rows.
    public var reload: RowAnimationStyle
    /// Inserted rows (after-indices) that slide in from the top (`directionHint: down`).
    public var insertionsFromTop: [Int]
    /// The animation of the other inserted rows.
    public var insertion: RowAnimationStyle
    /// Whether to lay out synchronously (`synchronous`/`lowLatency`): no placeholder frame.
    public var synchronous: Bool

    /// No animation at all.
    public static let none = TransitionAnimation(
        animated: false, crossfade: false, deletion: .none, reload: .none, insertionsFromTop: [], insertion: .none,
        synchronous: true)

    /// Creates an animation description.
    public init(
        animated: Bool, crossfade: Bool, deletion: RowAnimationStyle, reload: RowAnimationStyle,
        insertionsFromTop: [Int], insertion: RowAnimationStyle, synchronous: Bool
    ) {
        self.animated = animated
        self.crossfade = crossfade
        self.deletion = deletion
        self.reload = reload
        self.insertionsFromTop = insertionsFromTop
        self.insertion = insertion
        self.synchronous = synchronous
    }

    /// The animation the server's transition asks for.
    public init(_ transition: Transition) {
        let options = Set(transition.options)
        let synchronous = options.contains(.synchronous) || options.contains(.lowLatency)
        switch transition.reason {
        case .initial, .reload:
            self = .none
            self.synchronous = synchronous
        case .reloadAnimated:
            self.init(
                animated: true, crossfade: options.contains(.animateCrossfade), deletion: .none, reload: .none,
                insertionsFromTop: [], insertion: .none, synchronous: synchronous)
        case .interactiveChanges:
            let fades = options.contains(.animateAlpha)
            let slides = options.contains(.animateInsertion)
            let style: RowAnimationStyle = fades ? .fade : .none
            self.init(
                animated: fades || slides, crossfade: false, deletion: style, reload: style,
                insertionsFromTop: slides ? transition.inserts.filter { $0.directionHint == .down }.map(\.index) : [],
                insertion: style, synchronous: synchronous)
        }
    }

    /// The style of the insertion at after-index `index`.
    public func insertionStyle(at index: Int) -> RowAnimationStyle {
        insertionsFromTop.contains(index) ? .top : insertion
    }
}
