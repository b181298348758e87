// FingerprintProtocol
