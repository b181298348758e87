/// The module a door's store was last used with, as far as the fleet's fingers go: which
/// family's templates of which size its flash takes, and how many slots it has. Read without
/// the module (a door syncing with its hub while the reader is busy or unplugged).
public struct RecordedModuleLibrary: Sendable, Equatable {
    public var family: String
    public var templateSize: Int
    public var capacity: Int

    public init(family: String, templateSize: Int, capacity: Int) {
        self.family = family
        self.templateSize = templateSize
        self.capacity = capacity
    }
}

extension TemplateStore {
    /// The kv keys where the last module opened is recorded (`Administrator.recordModuleTemplateFormat`).
    public static let moduleFamilyKey = "module.family"
    public static let moduleTemplateSizeKey = "module.template-size"
    public static let moduleCapacityKey = "module.capacity"

    /// The attached module's library as last recorded; nil until a module with a known family,
    /// template size and capacity was opened with this store.
    public func recordedModuleLibrary() throws -> RecordedModuleLibrary? {
        let identity = try moduleIdentity()
        guard let family = try value(forKey: Self.moduleFamilyKey) ?? identity?.family,
              let size = try value(forKey: Self.moduleTemplateSizeKey).flatMap({ Int($0) }), size > 0,
              let capacity = try identity?.capacity ?? value(forKey: Self.moduleCapacityKey).flatMap({ Int($0) }), capacity > 0 else { return nil }
        return RecordedModuleLibrary(family: family, templateSize: size, capacity: capacity)
    }
}
