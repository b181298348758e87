import AccessPolicy
import JSONValue

extension HubStore {
    /// Sets a door's mode from the hub (normal, passage, lockdown, first-person-in); the change's
    /// revision. Only that door takes it; the last change wins, at the hub or at the door.
    @discardableResult
    public func setDoorMode(door name: String, mode: DoorMode) throws(HubStoreError) -> Int64 {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64 in
                let rows = try connection.execute("SELECT id FROM doors WHERE name = $1", [name])
                guard let text = rows.first?.first ?? nil, let id = Int64(text) else {
                    throw .invalid("no door \(name.debugDescription) on the hub; fpmod hub doors lists them")
                }
                try connection.execute("""
                    INSERT INTO door_modes (door_id, mode) VALUES ($1, $2) ON CONFLICT (door_id) DO UPDATE SET mode = EXCLUDED.mode
                    """, [String(id), mode.rawValue])
                return try Self.recordChange(connection, kind: .doorMode, key: name,
                                             state: .object(["door": .string(name), "mode": .string(mode.rawValue)]))
            }
        }
    }
}
