#if os(Linux)
    import CMicroHTTPD
    import Foundation
    import Glibc

    /// Serving one connection of a ``DirectLoop``: loop thread only.
    extension DirectLoop {
        /// Moves `connection` on as far as its socket allows, for at most
        /// ``requestsPerTurn`` requests: finishes the answer being sent,
        /// then reads the next request head.
        /// `hungUp`: the client closed its side (or the socket failed), so
        /// a head not whole yet never will be.
        func service(_ connection: DirectConnection, now: UInt64, hungUp: Bool = false) {
            if connection.closingSince != nil {
                drainWhileClosing(connection)
                return
            }
            var answered = 0
            while true {
                if connection.sending != nil {
                    switch connection.send(now: now) {
                    case .wouldBlock:
                        return
                    case .failed:
                        drop(connection)
                        return
                    case .done:
                        guard finish(connection, now: now) else {
                            beginClosing(connection, now: now)
                            return
                        }
                    }
                }
                guard answered < Self.requestsPerTurn else {
                    // Edge-triggered: nothing signals the requests already
                    // read, so the loop comes back to this one itself.
                    ready.append(connection)
                    return
                }
                let peeked = recv(connection.socket, peekBuffer.baseAddress, peekCapacity, Int32(MSG_PEEK))
                if peeked == 0 {
                    // Closed by the client between requests.
                    closeConnection(connection)
                    return
                }
                if peeked < 0 {
                    let code = interlude_errno()
                    if code == EINTR { continue }
                    if code != EAGAIN && code != EWOULDBLOCK { closeConnection(connection) }
                    return
                }
                let reading = HTTPRequestHead.read(
                    UnsafeRawBufferPointer(rebasing: peekBuffer[0..<peeked]),
                    directPrefixes: core.configuration.directPrefixes, maxHeadBytes: core.configuration.maxHeaderBytes)
                switch reading {
                case .incomplete:
                    guard !hungUp else {
                        closeConnection(connection)
                        return
                    }
                    connection.incompletePeeks += 1
                    // A head trickling in is libmicrohttpd's to read.
                    if connection.incompletePeeks >= Self.peeksPerHead { handOff(connection) }
                    return
                case .other:
                    handOff(connection)
                    return
                case .direct(let head):
                    guard consume(head.byteCount, from: connection.socket) else {
                        closeConnection(connection)
                        return
                    }
                    connection.incompletePeeks = 0
                    answered += 1
                    begin(head, on: connection, now: now)
                }
            }
        }

        /// Reads and discards the head just peeked (it is all in the socket's buffer).
        private func consume(_ count: Int, from socket: Int32) -> Bool {
            var left = count
            while left > 0 {
                let read = recv(socket, peekBuffer.baseAddress, min(left, peekCapacity), 0)
                if read > 0 {
                    left -= read
                } else if read < 0, interlude_errno() == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }

        private func begin(_ head: HTTPRequestHead, on connection: DirectConnection, now: UInt64) {
            core.inFlight.add(1, ordering: .relaxed)
            var response: HTTPResponse
            do {
                let request = try HTTPRequest(method: "GET", target: head.target, headers: head.headers)
                response = core.handler(request)
            } catch {
                response = error.response
            }
            if response.delivery != .immediate {
                core.logger.message(
                    .error, "direct path: \(head.target.prefix(200)) answered with a delivery it cannot send")
                response = HTTPError(status: 500, message: "this route cannot be answered on the direct path").response
            }
            let keepAlive = head.keepAlive && !core.draining.load(ordering: .relaxed)
            var answer = DirectAnswer(response, keepAlive: keepAlive, date: date(now: now))
            var descriptors: [Int32]
            var filesHeld = answer.runs
            switch files.acquire(answer.runs) {
            case .success(let opened):
                descriptors = opened
            case .failure(let failure):
                filesHeld = []
                // Before the head: the same bytes from memory when the body
                // has them, else an error, never a cut answer.
                core.logger.message(.error, "direct path: \(head.target.prefix(200)): \(failure.logText)")
                if !answer.sendAllFromMemory() {
                    var error = failure.response
                    // A browser player reads the error only with the route's CORS headers.
                    for field in response.headers
                    where field.name.lowercased().hasPrefix("access-control-")
                        || HTTPHeaders.namesMatch(field.name, "Vary")
                    {
                        error.headers.add(field.name, field.value)
                    }
                    answer = DirectAnswer(error, keepAlive: keepAlive, date: date(now: now))
                }
                descriptors = Array(repeating: -1, count: answer.runs.count)
            }
            connection.sending = DirectConnection.Sending(
                answer: answer, target: head.target, startNanoseconds: now, descriptors: descriptors,
                filesHeld: filesHeld)
        }

        /// Logs the answer just sent; whether the connection stays open.
        private func finish(_ connection: DirectConnection, now: UInt64) -> Bool {
            guard let sending = connection.sending else { return true }
            connection.sending = nil
            connection.lastActivity = now
            files.release(sending.filesHeld)
            core.inFlight.subtract(1, ordering: .releasing)
            log(sending, completed: true)
            return sending.answer.keepAlive
        }

        private func log(_ sending: DirectConnection.Sending, completed: Bool) {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- sending.startNanoseconds) / 1_000_000
            core.logger.access(
                AccessLogEntry(
                    method: "GET", target: sending.target, status: completed ? sending.answer.status : 0,
                    bodyBytes: sending.answer.bodyLength, durationMilliseconds: elapsed, completed: completed))
        }

        /// The last answer is sent: our side ends (FIN after the answer's
        /// bytes), and the connection waits for the client's close.
        private func beginClosing(_ connection: DirectConnection, now: UInt64) {
            _ = shutdown(connection.socket, Int32(SHUT_WR))
            connection.closingSince = now
            drainWhileClosing(connection)
        }

        private func drainWhileClosing(_ connection: DirectConnection) {
            switch connection.drainWhileClosing() {
            case .closed: closeConnection(connection)
            case .waiting: break
            case .more: ready.append(connection)
            }
        }

        /// Gives the connection to a libmicrohttpd daemon, unread request and all.
        private func handOff(_ connection: DirectConnection) {
            remove(connection)
            core.handOff(socket: connection.socket, address: &connection.address, length: connection.addressLength)
        }

        private func remove(_ connection: DirectConnection) {
            _ = interlude_epoll_control(epoll, EPOLL_CTL_DEL, connection.socket, 0)
            if connections.removeValue(forKey: connection.socket) != nil { heldCount.subtract(1, ordering: .relaxed) }
        }

        /// Closes `connection`, logging an answer cut short.
        func drop(_ connection: DirectConnection) {
            if let sending = connection.sending {
                core.inFlight.subtract(1, ordering: .releasing)
                log(sending, completed: false)
                files.release(sending.filesHeld)
                connection.sending = nil
            }
            closeConnection(connection)
        }

        func closeConnection(_ connection: DirectConnection) {
            remove(connection)
            close(connection.socket)
            core.connectionClosed()
        }
    }
#endif
