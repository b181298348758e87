// TEMPORARY (branch m-access only): replaced by h1-store's TemplateStore+Access.swift at merge.
import AccessPolicy
extension TemplateStore {
    public func dataVersion() throws -> Int64 { try locked { try connection.query("PRAGMA data_version").first?[0].int64 ?? 0 } }
    public func accessRules(timeZone: TimeZoneRules) throws -> AccessRules { AccessRules(calendar: AccessCalendar(timeZone: timeZone)) }
    public func consumeUse(user: String) throws -> Bool { true }
}
