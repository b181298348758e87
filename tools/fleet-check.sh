#!/usr/bin/env bash
# The fleet's own CI tier: the suites where a hub (`fpmod hub serve` on a scratch PostgreSQL,
# initdb + pg_ctl as an unprivileged user) and doors (`fpmod` on their own stores, the service
# too) are real processes — joining, following, one enrollment opening another door, a revocation
# while a door is offline, the hub SIGKILLed mid-sync and mid-upload, PostgreSQL restarted — run
# by themselves, the fleet console in headless Chromium (tools/fleet-console-e2e.sh), then the
# 200-door benchmark's short version (20 doors, 2,000 users).
#   tools/fleet-check.sh [DOORS] [USERS]
set -euo pipefail
cd "$(dirname "$0")/.."
suites="HubStoreTests|HubCommandTests|HubServeTests|ReplicaApplyTests|ReplicaFingerTests|JoinCommandTests|FleetFollowTests"
suites+="|FleetScenarioTests|FleetEnrollmentTests|HubClientTests|HubAddressTests|JoinCodeTests|ChangePageTests|StaleFleetTests"
suites+="|LockConfigFleetTests|FleetTrustTests|FleetReadmeTests|ReplicaHolidayTests|FleetConsoleTests|DoorReaderTests"
swift build --build-tests >&2
swift test --skip-build --filter "$suites"
tools/fleet-console-e2e.sh
tools/fleet-bench.sh "${1:-20}" "${2:-2000}"
