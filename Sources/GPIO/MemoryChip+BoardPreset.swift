extension MemoryChip {
    /// A memory chip laid out like the preset's board: each role's line sits at its offset
    /// and carries the role's name (`touch`, `relay`, `exit-button`, …), as on the gpio-vm chip.
    /// A preset without GPIO gives a chip with no lines.
    public convenience init(preset: BoardPreset, clock: @escaping @Sendable () -> UInt64 = monotonicNanoseconds) {
        let lines = preset.gpio?.lines ?? [:]
        var names = [String?](repeating: nil, count: (lines.values.map(\.offset).max() ?? -1) + 1)
        for (role, line) in lines where line.offset >= 0 { names[line.offset] = role.rawValue }
        self.init(name: "memory-" + preset.name, label: "memory", lineNames: names, clock: clock)
    }
}
