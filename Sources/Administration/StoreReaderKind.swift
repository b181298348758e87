import TemplateStore

/// Which kind of reader a store's fingers were enrolled with, kept in its key-value table.
///
/// Why: a UART module's templates are its own feature bytes and a host reader's are libfprint
/// prints; neither can match the other's, and a host reader must not hand out the slots of a
/// store whose slot numbers are a module's flash pages (nor a module sync write host prints
/// into flash). So each opener refuses a store the other kind wrote, before touching anything.
public enum StoreReaderKind {
    /// The kv key; its value is a `ReaderDescription.Kind` raw value ("module", "image-sensor").
    public static let key = TemplateStore.readerKindKey

    /// The kind recorded in the store, nil when none is (a store from before this mark, or empty).
    public static func recorded(in store: TemplateStore) throws -> ReaderDescription.Kind? {
        guard let text = try store.value(forKey: key) else { return nil }
        return ReaderDescription.Kind(rawValue: text)
    }

    /// Records `kind` unless it is already recorded.
    public static func record(_ kind: ReaderDescription.Kind, in store: TemplateStore) throws {
        if try store.value(forKey: key) != kind.rawValue { try store.setValue(kind.rawValue, forKey: key) }
    }

    /// Refuses a store marked as an image sensor's for a module (`Opening`).
    static func requireModuleStore(_ store: TemplateStore) throws {
        if try recorded(in: store) == .imageSensor {
            throw StoreKindError.belongsToImageSensor(databasePath: store.databasePath)
        }
    }
}

/// A store opened by the wrong kind of reader.
public enum StoreKindError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store's fingers were enrolled on an image sensor (host matching).
    case belongsToImageSensor(databasePath: String)

    public var description: String {
        switch self {
        case .belongsToImageSensor(let path):
            "the store \(path) holds fingers enrolled on an image sensor (matched on the host), which a UART module cannot use; "
                + "nothing was changed. Use a separate store for the module (--store PATH, or `store` in the config), "
                + "or open this one with the image sensor it was made with"
        }
    }
}
