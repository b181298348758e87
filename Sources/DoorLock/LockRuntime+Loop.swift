import AccessPolicy
import Administration
import Foundation
import GPIO
import Glibc
import Posix
import TemplateStore
import FingerprintProtocol

extension LockRuntime {
    /// Requests the lines, opens the sockets, restores the policy state and starts the worker.
    func prepare() throws {
        guard !prepared else { return }
        // Fail closed: a paired identity the store cannot read is a module nobody can vouch for.
        var identityProblem: String?
        let identity: ModuleIdentity?
        do { identity = try store.moduleIdentity() } catch {
            identity = nil
            identityProblem = "the store cannot read the paired module's identity (\(error))"
        }
        let family = config.family ?? identity.flatMap { ModuleFamilyName.parse($0.family) }
        var lines = config.resolvedLines(preset: preset, family: family)
        // The sensor's own IRQ says when a finger is down; the board's touch line is a module's.
        if readerConnection.detectsFingerItself { lines[.touch] = nil }
        do {
            for (role, line) in lines.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let offset = line.name.flatMap { chip.lineOffset(named: $0) } ?? line.offset
                do {
                    if role.isOutput {
                        outputs[role] = try chip.requestOutput(offset: offset, consumer: "fpmod-\(role.rawValue)",
                                                               initialValue: false, activeLow: line.activeLow)
                    } else {
                        inputs[role] = try chip.requestInput(offset: offset, consumer: "fpmod-\(role.rawValue)",
                                                             edges: .both, bias: line.bias, activeLow: line.activeLow,
                                                             debounceMicroseconds: line.debounceMicroseconds)
                    }
                } catch { throw LockServiceError.line(role, error) }
            }
            for path in [options.eventsSocket, options.controlSocket] {
                try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                         withIntermediateDirectories: true)
            }
            // A stale socket file (its process died) is replaced; a live one is an error naming its process.
            do { events = try EventHub(path: options.eventsSocket) } catch { throw Self.socketError(options.eventsSocket, error) }
            do { control = try UnixListener(path: options.controlSocket, mode: 0o660) } catch {
                throw Self.socketError(options.controlSocket, error)
            }
        } catch {
            releaseLines()
            events?.close()
            throw error
        }
        let stateProblem = restorePolicyState()
        hooks.onFailure = { [log] in log($0) }
        if let saved = state.lastObserved, !saved.sameBoot(as: clock.now()) {
            log("policy state saved in another boot (or before boot ids were recorded): the time since counts nothing (lockouts resume with what remained) and grace windows end")
        }
        decide(.started)
        checkConfigAtRuntime()
        if let stateProblem {
            log("policy state: \(stateProblem); starting with a PIN required")
            decide(.savedStateUnreadable(stateProblem))
        }
        if let identityProblem {
            log(identityProblem)
            decide(.moduleTamper(.other(identityProblem)))
        }
        refreshEnrolledSet()
        readInitialInputs()

        var settings = ReaderWorker.Settings()
        settings.pollInterval = inputs[.touch] == nil ? .milliseconds(config.scanIntervalMs) : nil
        settings.backoffInitial = options.backoffInitial
        settings.backoffMaximum = options.backoffMaximum
        settings.healthCheckInterval = options.healthCheckInterval
        settings.useAura = usesAura
        settings.store = store
        settings.library = config.library
        settings.layoutQuietPeriod = options.layoutQuietPeriod
        worker = ReaderWorker(connection: readerConnection, settings: settings) { [front] report in
            front.post(.worker(report))
        }
        worker.start()
        pinChecker = PinChecker(store: store, limit: options.pinQueueLimit) { [front] check in
            front.post(.pinChecked(check))
        }
        pinChecker.start()
        startKeypad()
        startWiegand()
        startWiegandOut()
        startNFC()
        if let interval = notifier.watchdogInterval { watchdogAt = .now + interval }
        notifier.notify("READY=1\nSTATUS=locked; waiting for the fingerprint reader")
        prepared = true
        publishSnapshot(running: true)
        startHomeAssistant(identity: identity)
    }

    var usesAura: Bool {
        switch config.leds {
        case .aura?: true
        case .gpio?, .none?: false
        case nil: config.family == .r50x && outputs[.ledGreen] == nil && outputs[.ledRed] == nil
        }
    }

    /// The loop: one poll, then everything that became ready, until stopped.
    func loop() {
        while !front.stopFlag.withLock({ $0 }) {
            var descriptors: [(FileDescriptor, PollEvents)] = [(wakeup.fileDescriptor, .readable)]
            if let signals { descriptors.append((signals.fileDescriptor, .readable)) }
            descriptors.append((control.fileDescriptor, .readable))
            descriptors.append((events.listener.fileDescriptor, .readable))
            let clientList = clients
            let subscriberList = events.subscribers
            for client in clientList {
                // A client that is done sending is at end of file for good: only its hang-up counts.
                descriptors.append((client.fileDescriptor, closingClients.contains(ObjectIdentifier(client)) ? [] : .readable))
            }
            for subscriber in subscriberList { descriptors.append((subscriber.fileDescriptor, .readable)) }
            let inputList = inputs.filter { $0.value.fileDescriptor >= 0 }.sorted { $0.key.rawValue < $1.key.rawValue }
            for (_, line) in inputList { descriptors.append((FileDescriptor(rawValue: line.fileDescriptor), .readable)) }
            let keypadRequest = keypad?.pollRequest
            if let keypadRequest { descriptors.append(keypadRequest) }
            let wiegandRequests = wiegand?.pollRequests ?? []
            descriptors += wiegandRequests
            let broker = homeAssistant?.pollRequest
            if let broker { descriptors.append(broker) }

            let ready: [PollEvents]
            do {
                ready = try poll(descriptors, deadline: nextWake())
            } catch {
                log("poll failed: \(error); retrying")
                continue
            }
            var index = 0
            func take() -> Bool {
                defer { index += 1 }
                return !ready[index].isEmpty
            }
            if take() { _ = wakeup.drain() }
            if signals != nil, take() { handleSignals() }
            if take() { acceptClients() }
            if take() { events.acceptAll() }
            for client in clientList where take() { serviceClient(client) }
            for subscriber in subscriberList where take() { events.serviceReadable(subscriber) }
            for (role, line) in inputList where take() { handleEdges(role, line) }
            if keypadRequest != nil, take() { handleKeypad() }
            if !wiegandRequests.isEmpty {
                let d0 = take(), d1 = take()
                handleWiegand(d0Ready: d0, d1Ready: d1)
            }
            // Last: the broker's messages never delay the door's own inputs of this turn.
            homeAssistant?.service(broker != nil ? ready[index] : [])
            drainInbox()
            fireTimers()
            publishSnapshot(running: true)
            homeAssistant?.update(homeAssistantStatus())
        }
        shutdown()
    }

    /// The earliest timer: policy deadline, relay pulse end, LED/buzzer, watchdog, hook reaping.
    func nextWake() -> ContinuousClock.Instant? {
        var candidates: [ContinuousClock.Instant] = [relayOffAt, ledRevertAt, buzzerOffAt, watchdogAt, auditHeadAt,
                                                     auditBacklog.isEmpty ? nil : (auditRetryAt ?? .now)].compactMap { $0 }
        if let deadline = policy.nextDeadline(state) {
            let seconds = deadline.monotonic - clock.now().monotonic
            candidates.append(.now + .milliseconds(Int64(max(0, seconds) * 1000) + 1))
        }
        if !hooks.running.isEmpty { candidates.append(.now + .milliseconds(500)) }
        if let wake = homeAssistant?.nextWake { candidates.append(wake) }
        if let wake = keypad?.nextWake { candidates.append(wake) }
        if let wake = wiegand?.nextWake { candidates.append(wake) }
        if let wake = hubSilenceCheckAt { candidates.append(wake) }
        return candidates.min()
    }

    func fireTimers() {
        let now = ContinuousClock.now
        if let at = relayOffAt, at <= now {
            relayOffAt = nil
            setRelay(false)
        }
        if let at = ledRevertAt, at <= now {
            ledRevertAt = nil
            showLED(.idle, revert: false)
        }
        if let at = buzzerOffAt, at <= now {
            buzzerOffAt = nil
            do { try outputs[.buzzer]?.set(false) } catch { log("buzzer: \(error)") }
        }
        if let at = watchdogAt, at <= now, let interval = notifier.watchdogInterval {
            notifier.notify("WATCHDOG=1")
            watchdogAt = now + interval
        }
        if let at = auditHeadAt, at <= now {
            auditHeadAt = now + Self.auditHeadInterval
            logAuditHead()
        }
        if auditBacklog.isEmpty {
            auditRetryAt = nil
        } else if auditRetryAt.map({ $0 <= now }) ?? true {
            auditRetryAt = now + Self.auditRetryInterval
            flushAuditBacklog()
        }
        if let at = hubSilenceCheckAt, at <= now { checkHubSilence() }
        keypad?.expire()
        if let wiegand, wiegand.isDue { handleWiegand(d0Ready: false, d1Ready: false) }
        let moment = clock.now()
        if let deadline = policy.nextDeadline(state), deadline.monotonic <= moment.monotonic {
            decide(.tick)
        } else if let last = state.lastObserved, last.wallStep(until: moment) != nil {
            // A wall-clock step is reported when the loop next wakes (a request, a timer, the
            // watchdog; at the latest the audit head's 10 minutes), not at the next credential.
            decide(.tick)
        }
        hooks.reap()
    }

    func handleEdges(_ role: LineRole, _ line: any InputLine) {
        let edges: [EdgeEvent]
        do { edges = try line.readEvents() } catch {
            log("\(role.rawValue) line: reading its edges failed: \(error)")
            return
        }
        for edge in edges {
            let active = edge.kind == .rising
            switch role {
            case .touch:
                if active {
                    emit(LockEvent(name: "touch"))
                    if touchArmed && !moduleBusy && moduleConnected {
                        touchArmed = false
                        requestScan(edge: edge.timestampNanoseconds)
                    }
                } else {
                    touchArmed = true
                }
            case .exitButton:
                if active { decide(.exitButton) }
            case .doorContact:
                decide(active ? .doorOpened : .doorClosed)
            case .tamper:
                decide(.tamper(active: active))
            default:
                break
            }
        }
    }

    func requestScan(edge: UInt64) {
        scanInFlight = true
        worker.submit(.scan(edge: edge, verifying: oneToOneUser))
    }

    func handleSignals() {
        guard let received = try? signals?.read() else { return }
        for signal in received {
            switch signal {
            case SIGTERM, SIGINT:
                stopReason = signal == SIGTERM ? "SIGTERM" : "SIGINT"
                front.stopFlag.withLock { $0 = true }
            case SIGHUP: reloadConfiguration()
            default: break  // SIGCHLD: hooks are reaped below
            }
        }
        hooks.reap()
    }

    func drainInbox() {
        let messages = front.inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
        for message in messages {
            switch message {
            case .worker(let report): handleWorker(report)
            case .pinChecked(let check): finishPinCheck(check)
            case .wiegandOutSent(let result): finishWiegandOut(result)
            case .nfc(let happening): handleNFC(happening)
            case .reload: reloadConfiguration()
            }
        }
    }

    func handleWorker(_ report: WorkerReport) {
        switch report {
        case .connected(let reader):
            moduleConnected = true
            readerDescription = reader
            // The opener may have finished an interrupted enroll or delete.
            refreshEnrolledSet()
            notifier.notify("STATUS=locked; \(reader.kind == .module ? "module" : "sensor") \(reader.model) connected")
            log("fingerprint reader: \(reader)")
            if !state.moduleConnected { decide(.moduleReconnected) } else {
                emit(LockEvent(name: "module-ready", fields: ["family": reader.model, "kind": reader.kind.rawValue,
                                                              "capacity": reader.capacity.map(String.init) ?? "unknown"]))
            }
        case .disconnected(let reason):
            moduleConnected = false
            notifier.notify("STATUS=locked; fingerprint \(readerDescription?.kind == .imageSensor ? "sensor" : "module") not answering, retrying")
            decide(.moduleDisconnected)
            log("fingerprint reader: \(reason)")
        case .scanned(let outcome, var timing):
            scanInFlight = false
            handleScan(outcome, &timing)
        case .lifted:
            touchArmed = true
        case .tamper(let reason):
            decide(.moduleTamper(reason))
        case let .adminDone(id, answer, changed):
            adminInFlight = false
            if let client = pendingReplies.removeValue(forKey: id) {
                reply(client, answer)
                closeIfAnswered(client)
            } else if let command = remoteRequests.adminJobs.removeValue(forKey: id) {
                finishRemoteAdmin(command, reply: answer)
            }
            if changed { refreshEnrolledSet() }
        case let .adminProgress(id, line):
            if let client = pendingReplies[id] {
                reply(client, line)
            } else if let command = remoteRequests.adminJobs[id] {
                remoteAdminProgress(command, line: line)
            }
        case .searchOrder(let status):
            libraryStatus = status
        case .repaired(let line):
            log("repair: \(line)")
        }
    }

    /// Maps a scan to a policy event (looking the slot up in the store) and executes the decision.
    func handleScan(_ outcome: ScanOutcome, _ timing: inout ScanTiming) {
        var context = DecisionContext(timing: timing, reader: .fingerprint)
        let event: PolicyEvent
        switch outcome {
        case let .match(slot, score):
            context.slot = slot
            context.score = score
            event = matchEvent(slot: slot, score: score, context: &context)
        case .noMatch: event = .fingerNotMatched
        case .retryScan: event = .captureRejected(.poorQuality)
        case .misplaced: event = .captureRejected(.misplaced)
        case .disconnected: return
        case .failed(let reason):
            log("scan failed, no decision: \(reason)")
            return
        }
        decide(event, context: context)
    }

    func publishSnapshot(running: Bool) {
        let snapshot = LockService.Snapshot(running: running, relayOn: relayOn, scanInFlight: moduleBusy,
                                moduleConnected: moduleConnected, policy: state,
                                eventCount: front.shared.withLock { $0.eventCount })
        front.shared.withLock { $0 = snapshot }
    }

    func releaseLines() {
        for (_, line) in outputs { line.release() }
        for (_, line) in inputs { line.release() }
        outputs.removeAll()
        inputs.removeAll()
        wiegand = nil  // its listener gives its two lines back
        wiegandOut = nil  // stopped first (shutdown); its sender gives its lines back
    }

    static func socketError(_ path: String, _ error: Errno) -> LockServiceError {
        if error == .addressInUse, let owner = UnixListener.listener(at: path) {
            return .socketInUse(path: path, pid: owner.pid, command: owner.commandLine)
        }
        return .socket(path: path, error)
    }

    /// Fail secure: relay off and the sockets closed first, before waiting for anything (a
    /// module command in flight, a PIN hash), so a restart finds the socket paths free; then
    /// the threads get a short while to finish, together, and everything is released.
    func shutdown() {
        notifier.notify("STOPPING=1")
        setRelay(false)
        relayOffAt = nil
        // Both threads are told first, so their waits overlap instead of adding up.
        worker.requestStop()
        pinChecker.requestStop()
        wiegandOut?.stop()
        nfc?.stop()
        log("stopping (\(stopReason ?? "asked to stop")): relay off, door locked; closing the sockets"
            + (homeAssistant != nil ? ", telling Home Assistant the lock is offline" : "")
            + " and letting the fingerprint reader finish its command (at most \(Self.threadGrace.components.seconds) s)")
        homeAssistant?.stop()
        homeAssistant = nil
        for client in clients { client.close() }
        clients.removeAll()
        pendingReplies.removeAll()
        closingClients.removeAll()
        control.close()
        events.close()
        let deadline = ContinuousClock.now + Self.threadGrace
        let readerFinished = worker.waitUntilFinished(timeout: max(.zero, deadline - .now))
        let pinFinished = pinChecker.waitUntilFinished(timeout: max(.zero, deadline - .now))
        // libnfc's call in progress ends by its own timeout; its thread then closes the reader.
        let nfcFinished = nfc?.waitUntilFinished(timeout: max(.zero, deadline - .now)) ?? true
        // Nothing decides any more: a PIN result arriving now must not pulse the relay.
        front.inbox.withLock { $0.removeAll() }
        writeAudit(AuditBacklog.Record(event: "stopped", user: nil, slot: nil, score: nil, latencyJSON: nil,
                                       detail: "service stopped; relay off, door locked", time: Date()))
        if !auditBacklog.isEmpty {
            log("stopping with \(auditBacklog.records.count) audit record(s) the store could not take (\(auditBacklog.failure ?? "unknown")); they are lost")
        }
        logAuditHead()
        releaseLines()
        hooks.reap()
        publishSnapshot(running: false)
        let unfinished = [readerFinished ? nil : "the fingerprint reader's command", pinFinished ? nil : "a PIN check",
                          nfcFinished ? nil : "the NFC reader's call"].compactMap { $0 }
        log(unfinished.isEmpty ? "stopped"
            : "stopped; \(unfinished.joined(separator: " and ")) had not finished after \(Self.threadGrace.components.seconds) s and was left behind (the door was already locked)")
    }

    static let auditHeadInterval: Duration = .seconds(600)
    /// How often records the store refused are tried again while nothing new is recorded.
    static let auditRetryInterval: Duration = .seconds(5)

    /// `audit chain head: ID:HASH` to the log (the journal) when the head moved since the last.
    func logAuditHead() {
        guard let head = try? store.auditChainHead(), head.id != loggedAuditHead else { return }
        loggedAuditHead = head.id
        log("audit chain head: \(head)")
    }

    /// How long `shutdown` lets the reader's command in flight and a PIN check finish.
    static let threadGrace: Duration = .seconds(1)
}

/// Family names as the store keeps them.
enum ModuleFamilyName {
    static func parse(_ text: String) -> FingerprintProtocol.ModuleFamily? { FingerprintProtocol.ModuleFamily(rawValue: text) }
}
