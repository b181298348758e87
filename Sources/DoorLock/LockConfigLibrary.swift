import Administration

extension LockConfig {
    /// The `library` section: how identify searches the module's library and how far the
    /// service may rearrange it. `{"searchOrder": "regulars-first", "maxFlashWritesPerDay": 200}`.
    public struct Library: Sendable, Equatable {
        /// `regulars-first` (the default): once the audit log has enough identify touches, the
        /// fingers that touch most are searched first and the rest only on a miss.
        public var searchOrder: SearchOrder.Mode = .regularsFirst
        /// Flash writes the service may spend per UTC day moving templates so the regulars sit in
        /// one range (two per move). 0 = never move. Module flash is rated for about 100 000
        /// writes per page: 200 a day is under 1 % of that per year.
        public var maxFlashWritesPerDay = 200
        /// Overrides the family's datasheet search cost (`{"fixedMs": 10, "perTemplateMs": 0.9}`),
        /// for a module measured slower or faster than its datasheet.
        public var searchCost: SearchCost?

        public init() {}
    }

    static let libraryKeys = ["searchOrder", "maxFlashWritesPerDay", "searchCost"]
    /// A bound above this is a mistake: it would rewrite a 1000-template library every day.
    static let maxFlashWritesPerDayLimit = 5000

    mutating func readLibrary(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.libraryKeys, at: "library")
        if let v = object["searchOrder"] {
            library.searchOrder = r.choice(v, "library.searchOrder", SearchOrder.Mode.self,
                                           choices: SearchOrder.Mode.allCases.map(\.rawValue)) ?? library.searchOrder
        }
        if let v = object["maxFlashWritesPerDay"] {
            library.maxFlashWritesPerDay = r.integer(v, "library.maxFlashWritesPerDay", range: 0...Self.maxFlashWritesPerDayLimit)
                ?? library.maxFlashWritesPerDay
        }
        if let v = object["searchCost"], let cost = r.object(v, "library.searchCost") {
            r.rejectUnknownKeys(cost, known: ["fixedMs", "perTemplateMs"], at: "library.searchCost")
            let fixed = cost["fixedMs"].flatMap { r.number($0, "library.searchCost.fixedMs") }
            let perTemplate = cost["perTemplateMs"].flatMap { r.number($0, "library.searchCost.perTemplateMs") }
            guard let fixed, let perTemplate else {
                if cost["fixedMs"] == nil || cost["perTemplateMs"] == nil {
                    r.problem("library.searchCost", "needs both fixedMs and perTemplateMs, e.g. {\"fixedMs\": 10, \"perTemplateMs\": 0.9}")
                }
                return
            }
            guard (0...1000).contains(fixed), perTemplate > 0, perTemplate <= 100 else {
                r.problem("library.searchCost", "fixedMs must be 0 to 1000 and perTemplateMs above 0 and at most 100 (milliseconds)")
                return
            }
            library.searchCost = SearchCost(fixedMilliseconds: fixed, perTemplateMilliseconds: perTemplate)
        }
    }
}
