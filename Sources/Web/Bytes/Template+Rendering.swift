/// A template's program run over borrowed buffers: the steps, the literal bytes and each name's
/// place in the context lent in place (on the stack), appended to one growing buffer. Every
/// page is rendered here.
extension Template {
    /// Renders with the given values; a missing name renders as nothing.
    public func render(_ context: TemplateContext) -> [UInt8] {
        // Where each name is in the context, found once (not at every slot that shows it; for a
        // layout rendered before, not even by name), kept on the stack.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: names.count) { slots in
            slotMemo.fill(slots, names: names, from: context)
            return steps.withUnsafeBufferPointer { steps in
                literalBytes.withUnsafeBufferPointer { literals in
                    // Written straight into the page's array, with room for the template's text and
                    // a kilobyte of values; a page that needs more is finished in room of its own
                    // and copied into an array of its size.
                    var larger: [UInt8]?
                    let page = [UInt8](room: literals.count + 1024) { room in
                        var renderer = Renderer(
                            steps: steps, literals: literals, names: names, context: context,
                            slots: UnsafeBufferPointer(slots), buffer: GrowingBytes(room: room))
                        renderer.run(0, steps.count)
                        let written = renderer.finish()
                        guard !written.ownsItsBytes else {
                            larger = written.array()
                            return 0
                        }
                        return written.count
                    }
                    return larger ?? page
                }
            }
        }
    }

    private struct Renderer: ~Copyable {
        let steps: UnsafeBufferPointer<Step>
        let literals: UnsafeBufferPointer<UInt8>
        let names: [String]
        let context: TemplateContext
        /// Each name's place in `context`, -1 when it is not there.
        let slots: UnsafeBufferPointer<Int>
        /// The item of the innermost list being repeated; its names come first, then those of the
        /// lists around it (`outerItems`, innermost last). Kept apart: a page repeats one list at
        /// most, which then makes no array.
        var item: TemplateContext?
        var outerItems: [TemplateContext] = []
        var buffer: GrowingBytes

        init(
            steps: UnsafeBufferPointer<Step>, literals: UnsafeBufferPointer<UInt8>, names: [String],
            context: TemplateContext, slots: UnsafeBufferPointer<Int>, buffer: consuming GrowingBytes
        ) {
            self.steps = steps
            self.literals = literals
            self.names = names
            self.context = context
            self.slots = slots
            self.buffer = buffer
        }

        consuming func finish() -> GrowingBytes { buffer }

        func value(_ index: Int) -> TemplateValue? {
            // Outside any list both are empty: nothing is looked up.
            if let value = item?[names[index]] { return value }
            var level = outerItems.count - 1
            while level >= 0 {
                if let value = outerItems[level][names[index]] { return value }
                level -= 1
            }
            let slot = slots[index]
            return slot < 0 ? nil : context.value(at: slot)
        }

        mutating func run(_ start: Int, _ end: Int) {
            var position = start
            while position < end {
                let step = steps[position]
                position += 1
                switch step {
                case .literal(let start, let end):
                    buffer.append(UnsafeBufferPointer(rebasing: literals[start..<end]))
                case .escaped(let index):
                    switch value(index) {
                    case .text(let text)?: HTMLEscaping.forEachRun(of: text) { buffer.append($0) }
                    default: break
                    }
                case .raw(let index):
                    switch value(index) {
                    case .text(let text)?: buffer.append(text)
                    default: break
                    }
                case .section(let index, let inverted, let sectionEnd):
                    // Outside lists the value is judged where it lies in the context: copied out
                    // (`value(_:)`), each section cost a retain and a release.
                    let slot = item == nil ? slots[index] : -1
                    let shows =
                        slot >= 0
                        ? Self.shows(context.values.entries[slot].value, inverted: inverted)
                        : value(index).map { Self.shows($0, inverted: inverted) } ?? (inverted ? .once : .never)
                    switch shows {
                    case .never: break
                    case .once: run(position, sectionEnd)
                    case .oncePerItem(let list): repeatSection(list, position, sectionEnd)
                    case .rendered(let items): for item in items { buffer.append(item) }
                    }
                    position = sectionEnd
                }
            }
        }

        /// How a section shows.
        enum Shows {
            case never, once
            case oncePerItem([TemplateContext])
            /// Its items' own bytes, in place of the body.
            case rendered([[UInt8]])
        }

        /// How a section of `value` shows: once per item of a list, else once when the value is
        /// truthy (`TemplateValue.isTruthy`), or, inverted, when it is not.
        static func shows(_ value: TemplateValue, inverted: Bool) -> Shows {
            if !inverted {
                switch value {
                case .list(let list): return .oncePerItem(list)
                case .renderedItems(let items): return items.isEmpty ? .never : .rendered(items)
                case .text, .flag: break
                }
            }
            return value.isTruthy != inverted ? .once : .never
        }

        /// Runs the steps from `start` to `end` once per item of `list`, each item's names on top.
        mutating func repeatSection(_ list: [TemplateContext], _ start: Int, _ end: Int) {
            let enclosing = item.take()
            if let enclosing { outerItems.append(enclosing) }
            for element in list {
                item = element
                run(start, end)
            }
            item = enclosing == nil ? nil : outerItems.removeLast()
        }
    }
}
