// FingerprintModule
