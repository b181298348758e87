// libfreefare 0.4.0 sends every DESFire command with nfc_initiator_transceive_bytes(..., 0), and
// libnfc takes a timeout of 0 as "wait for ever", down to the PN532's ACK: a reader that dies in
// the middle of a DESFire dialog would hang the calling thread for good, with the process-wide
// libnfc lock held. This definition takes the place of libnfc's for the whole process (the
// executable's symbol comes first in ELF lookup, and libfreefare's calls go through the PLT),
// bounds the untimed calls, and hands every call on to libnfc's own through RTLD_NEXT. fpmod's
// own code never sends an untimed one, so only libfreefare's are changed.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <nfc/nfc.h>

#include "CNFCTimeout.h"

static atomic_int bound_ms = 1000;

int fpmod_nfc_untimed_transceive_bound_ms(void) { return atomic_load(&bound_ms); }

void fpmod_nfc_set_untimed_transceive_bound_ms(int milliseconds) {
    if (milliseconds > 0) atomic_store(&bound_ms, milliseconds);
}

typedef int (*transceive_bytes_fn)(nfc_device *, const uint8_t *, const size_t, uint8_t *, const size_t, int);

int nfc_initiator_transceive_bytes(nfc_device *pnd, const uint8_t *pbtTx, const size_t szTx, uint8_t *pbtRx,
                                   const size_t szRx, int timeout) {
    // Looked up once; a race between two first calls stores the same pointer.
    static _Atomic(transceive_bytes_fn) libnfc_call = NULL;
    transceive_bytes_fn call = atomic_load(&libnfc_call);
    if (call == NULL) {
        call = (transceive_bytes_fn)dlsym(RTLD_NEXT, "nfc_initiator_transceive_bytes");
        if (call == NULL) return NFC_ESOFT;
        atomic_store(&libnfc_call, call);
    }
    if (timeout == 0) timeout = atomic_load(&bound_ms);
    return call(pnd, pbtTx, szTx, pbtRx, szRx, timeout);
}
