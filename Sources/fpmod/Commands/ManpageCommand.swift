import ArgumentParsing

/// `fpmod manpage [--date YYYY-MM-DD]`: the fpmod(1) page in troff, rendered from `Program.spec`
/// (the same declarations `--help` prints), for packaging: `fpmod manpage > fpmod.1`. The footer
/// date is --date, else the UTC day of SOURCE_DATE_EPOCH, else empty, so the page is reproducible.
enum ManpageCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let date = try footerDate(option: invocation.parsed.string("date"),
                                  sourceDateEpoch: invocation.environment["SOURCE_DATE_EPOCH"])
        let page = ManPageFormatter(program: Program.spec, date: date, seeAlso: ["sysexits.h(3head)"])
        StandardStreams.writeOutput(page.render())
        return .ok
    }

    static func footerDate(option: String?, sourceDateEpoch: String?) throws -> String? {
        if let option {
            guard isDay(option) else {
                throw CommandFailure(.usage, "--date takes a day as YYYY-MM-DD, e.g. 2026-12-01 (got '\(option)').")
            }
            return option
        }
        guard let text = sourceDateEpoch, !text.isEmpty else { return nil }
        guard let seconds = Int64(text), seconds >= 0 else {
            throw CommandFailure(.usage, "SOURCE_DATE_EPOCH must be whole seconds since 1970 (got '\(text)').")
        }
        return day(epochSeconds: seconds)
    }

    /// `YYYY-MM-DD`, digits and dashes only (not checked against the calendar).
    static func isDay(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 10 else { return false }
        return characters.enumerated().allSatisfy { index, character in
            index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
        }
    }

    /// The UTC day of a Unix time, by the civil-from-days algorithm (proleptic Gregorian calendar).
    static func day(epochSeconds: Int64) -> String {
        let days = epochSeconds / 86_400 + 719_468
        let era = days / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(dayOfMonth, 2)
    }
}
