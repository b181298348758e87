import AccessPolicy
import TemplateStore

/// What `fpmod config check` (and `fpmod run` at start) says about the rules the config and
/// the store make together: the config's passage schedule must be in the store, and every
/// stored schedule and holiday must still read (one that does not refuses its users: never
/// looser, but surely not what the admin meant). Each problem starts with the config key or
/// the stored rule it is about.
public enum AccessRulesCheck {
    public static func problems(config: LockConfig, store: TemplateStore) throws -> [String] {
        var problems: [String] = []
        let schedules = try store.schedules()
        let names = schedules.map(\.name)
        for schedule in schedules {
            do { _ = try WeeklySchedule(parsing: schedule.text) } catch {
                problems.append("schedule \"\(schedule.name)\" in the store: \(error); its users are refused until it is replaced (fpmod schedule add \(schedule.name) TEXT --replace)")
            }
        }
        for holiday in try store.holidays() {
            let datesRead = CivilDate(parsing: Substring(holiday.first)) != nil && CivilDate(parsing: Substring(holiday.last)) != nil
            let hoursRead = holiday.hours.map { (try? WeeklySchedule(parsing: $0)) != nil } ?? true
            if !datesRead || !hoursRead {
                problems.append("holiday \"\(holiday.name)\" in the store cannot be read; delete it and add it again (fpmod holiday delete \(holiday.name))")
            }
        }
        if let passage = config.access.passageSchedule, !names.contains(passage) {
            let hint = ConfigReader.closest(passage, in: names).map { "did you mean \"\($0)\"? " } ?? ""
            problems.append("access.passageSchedule: \"\(passage)\" is not a schedule in the store; \(hint)"
                + (names.isEmpty ? "add it first: fpmod schedule add \(passage) 'mon-sat 09:00-18:00'" : "the store has \(names.joined(separator: ", "))"))
        }
        return problems
    }
}
