import Foundation
import HubStore
import Testing
import TestSupport

/// `fpmod hub migrate` as a maker runs it, against a real PostgreSQL started for the test.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct HubCommandTests {
    @Test func migrateBringsAnEmptyDatabaseToTheSchemaThenChangesNothing() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("fleet")
        let cli = CLI()
        let first = try cli.run(["hub", "migrate", "--database", database])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("from schema version 0 to \(HubSchema.currentVersion)"), "\(first.stdout)")
        #expect(try server.psql("fleet", "SELECT max(version) FROM hub_migrations") == String(HubSchema.currentVersion))

        // The database from the environment, and the answer as JSON.
        cli.environment["FPMOD_HUB_DATABASE"] = database
        let again = try cli.run(["hub", "migrate", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let json = try #require(again.json, "\(again.stdout)")
        #expect(json["from"] as? Int == HubSchema.currentVersion && json["to"] as? Int == HubSchema.currentVersion)
        _ = try HubStore(conninfo: database)
    }

    @Test func aNewerSchemaAnUnreachableServerAndNoDatabaseAreEachNamed() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("fleet")
        let cli = CLI()
        #expect(try cli.run(["hub", "migrate", "--database", database]).status == 0)
        _ = try server.psql("fleet", "INSERT INTO hub_migrations (version) VALUES (99)")
        let newer = try cli.run(["hub", "migrate", "--database", database])
        #expect(newer.status == 65)
        #expect(newer.stderr.contains("99"), "\(newer.stderr)")
        #expect(try server.psql("fleet", "SELECT max(version) FROM hub_migrations") == "99")

        let gone = try cli.run(["hub", "migrate", "--database", "host=\(server.directory)/nothing dbname=fleet user=fpmod"])
        #expect(gone.status == 69, "\(gone.stderr)")
        #expect(!gone.stderr.isEmpty)

        let none = try cli.run(["hub", "migrate"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("--database"), "\(none.stderr)")
    }
}
