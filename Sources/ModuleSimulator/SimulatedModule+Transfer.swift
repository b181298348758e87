import FingerprintProtocol

/// The data phases (protocol.md §5): uploads stream data/end packets of the configured size
/// after the ack; downloads are consumed silently packet by packet.
extension SimulatedModule {
    /// UpChar (08). R50x ignores the BufferID and sends the model buffer when there is one.
    func uploadChar(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 1 else { return ack(.packetError, for: command) }
        guard let contents = bufferContents(command.parameters[0]) else { return ack(.uploadFeatureFail, for: command) }
        return ackWithData(contents, for: command)
    }

    /// DownChar (09): ready to receive a template into the buffer.
    mutating func downloadChar(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 1 else { return ack(.packetError, for: command) }
        let reply = ack(.success, for: command)
        download = PendingDownload(target: .charBuffer(bufferIndex(command.parameters[0])), limit: profile.templateSize)
        return reply
    }

    /// UpImage (0A): the image buffer as 4-bit pixels.
    func uploadImage(_ command: Command) -> ReplyPlan {
        guard let current = image else { return ack(.uploadImageFail, for: command) }
        return ackWithData(pixels(of: current), for: command)
    }

    /// DownImage (0B): ready to receive an image (4-bit, same layout as UpImage).
    mutating func downloadImage(_ command: Command) -> ReplyPlan {
        let reply = ack(.success, for: command)
        download = PendingDownload(target: .image, limit: profile.imageByteCount)
        return reply
    }

    /// ReadInfPage (16): 512 bytes of "information page".
    func readInformationPage(_ command: Command) -> ReplyPlan {
        var page = [UInt8](repeating: 0, count: 512)
        let parameters = SystemParameters(capacity: profile.capacity, securityLevel: flash.securityLevel,
                                          address: flash.address, packetSizeCode: flash.packetSizeCode,
                                          baudMultiplier: flash.baudMultiplier).encoded()
        page.replaceSubrange(0..<parameters.count, with: parameters)
        let info = profile.productInfo.encoded()
        page.replaceSubrange(32..<32 + info.count, with: info)
        return ackWithData(page, for: command)
    }

    func pixels(of buffer: ImageBuffer) -> [UInt8] {
        if let downloaded = buffer.downloaded { return downloaded }
        let file = buffer.minutiae.map { CharFile.encode($0, quality: buffer.quality, size: profile.charFileSize) } ?? []
        return SyntheticImage.render(finger: buffer.placement?.finger, quality: buffer.placement?.quality ?? .good,
                                     charFile: file, width: profile.imageWidth, height: profile.imageHeight,
                                     seed: buffer.seed)
    }

    /// One data/end packet of a download; anything unexpected aborts the transfer.
    mutating func receiveData(_ frame: Frame) {
        guard var current = download else { return }
        let isEnd = frame.packetID == .end
        // A data packet must be exactly the configured size; only the end packet may be shorter.
        guard isEnd ? frame.content.count <= flash.packetSize : frame.content.count == flash.packetSize,
              current.received.count + frame.content.count <= current.limit else {
            download = nil
            return
        }
        current.received += frame.content
        guard isEnd else {
            download = current
            return
        }
        download = nil
        switch current.target {
        case let .charBuffer(index):
            charBuffers[index] = current.received
            if profile.familyProfile.genImgWipesFeatures { modelBuffer = current.received }
            latestExtracted = index
        case .image:
            let recovered = SyntheticImage.recoverCharFile(fromNibbles: current.received, width: profile.imageWidth,
                                                            height: profile.imageHeight, size: profile.charFileSize)
            image = ImageBuffer(placement: nil, minutiae: recovered.flatMap { CharFile.decode($0[...]) },
                                quality: recovered?[2] ?? 0, downloaded: current.received, seed: 0)
        }
    }
}
