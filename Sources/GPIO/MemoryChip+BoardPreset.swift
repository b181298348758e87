extension MemoryChip {
    /// A memory chip laid out like the preset's board: as many lines as its chip has (the
    /// preset's `lineCount`, else up to its highest offset), each role's line at its offset
    /// carrying the role's name (`touch`, `relay`, `exit-button`, …), as on the gpio-vm chip.
    /// A preset without GPIO gives a chip with no lines.
    public convenience init(preset: BoardPreset, clock: @escaping @Sendable () -> UInt64 = monotonicNanoseconds) {
        let lines = preset.gpio?.lines ?? [:]
        let count = max(preset.gpio?.lineCount ?? 0, (lines.values.map(\.offset).max() ?? -1) + 1)
        var names = [String?](repeating: nil, count: count)
        for (role, line) in lines where line.offset >= 0 { names[line.offset] = role.rawValue }
        self.init(name: "memory-" + preset.name, label: "memory", lineNames: names, clock: clock)
    }
}
