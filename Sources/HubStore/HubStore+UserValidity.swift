import TemplateStore

extension HubStore {
    /// Sets or clears a user's validity at every door: when they may first and last come in
    /// (UTC seconds, `validUntil` exclusive) and how many more grants each door gives them (each
    /// door counts its own down from it). A field left nil stays as the hub has it, as `fpmod
    /// user set` leaves it at one door. The user's whole state is recorded again, as
    /// `setSchedule` records it, since a door replaces a user with what a change carries. The
    /// change's revision and the user as it now is (for the front ends to say what it now
    /// means); nil when the hub has no such user.
    @discardableResult
    public func setValidity(ofUser name: String, validFrom: AccessChange<Int64>? = nil, validUntil: AccessChange<Int64>? = nil,
                            usesLeft: AccessChange<Int>? = nil) throws(HubStoreError) -> (revision: Int64, user: HubUser)? {
        try HubUser.checked { () throws(NameError) in _ = try UserName(validating: name) }
        if case .set(let uses)? = usesLeft, uses < 0 { throw .invalid("uses left is 0 or more") }
        if case .set(let from)? = validFrom, case .set(let until)? = validUntil, until <= from {
            throw .invalid("the validity would end before it starts")
        }
        // Each field as two parameters: whether it changes, and to what (NULL: cleared).
        func parameters<T>(_ change: AccessChange<T>?) -> [String?] {
            switch change {
            case nil: ["false", nil]
            case .clear?: ["true", nil]
            case .set(let value)?: ["true", "\(value)"]
            }
        }
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> (revision: Int64, user: HubUser)? in
                let rows = try connection.execute("""
                    UPDATE users SET valid_from = CASE WHEN $2::boolean THEN $3::bigint ELSE valid_from END,
                        valid_until = CASE WHEN $4::boolean THEN $5::bigint ELSE valid_until END,
                        uses_left = CASE WHEN $6::boolean THEN $7::integer ELSE uses_left END
                    WHERE name = $1
                    RETURNING \(Self.userColumns)
                    """, [name] + parameters(validFrom) + parameters(validUntil) + parameters(usesLeft))
                guard let row = rows.first else { return nil }
                let user = try Self.user(row)
                // One side changed here may cross the other as the hub had it: the throw rolls the update back.
                if let from = user.validFrom, let until = user.validUntil, until <= from {
                    throw .invalid("the validity would end before it starts; nothing was changed")
                }
                return (try Self.recordChange(connection, kind: .user, key: name, state: user.state), user)
            }
        }
    }
}
