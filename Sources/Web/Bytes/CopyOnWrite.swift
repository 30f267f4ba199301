/// A value kept in one object that copies share until one of them changes, as `Array` keeps its
/// elements: copying a record of some twenty strings and lists then retains one reference, not
/// each of them (the session, copied on every page view from what its thread opened before).
public struct CopyOnWrite<Value: Sendable>: Sendable {
    /// Changed only while no other copy refers to it (`value`'s setter): what makes it safe to
    /// send, as a value is, and what keeps two accesses from overlapping (the copy's own `value`
    /// is checked as any struct's property is), so they are not checked again at run time
    /// (eight a page view, some 50 instructions each).
    @usableFromInline
    final class Box: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var value: Value

        @usableFromInline
        init(_ value: Value) { self.value = value }
    }

    @usableFromInline var box: Box

    /// `value`, in an object of its own.
    @inlinable
    public init(_ value: Value) { box = Box(value) }

    /// The value; changing it first makes the object this copy's own when another copy shares it.
    @inlinable
    public var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    /// True when both copies share one object (and so are equal without comparing them).
    @inlinable
    public func isShared(with other: CopyOnWrite) -> Bool { box === other.box }
}
