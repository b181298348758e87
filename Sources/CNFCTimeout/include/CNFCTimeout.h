#ifndef FPMOD_CNFCTIMEOUT_H
#define FPMOD_CNFCTIMEOUT_H

/// The bound, in milliseconds, that replaces "no timeout" (0) in nfc_initiator_transceive_bytes
/// calls made in this process (see NFCTimeout.c). Default 1000.
int fpmod_nfc_untimed_transceive_bound_ms(void);
void fpmod_nfc_set_untimed_transceive_bound_ms(int milliseconds);

#endif
