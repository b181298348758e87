// libfreefare 0.4.0 (Debian 12 and 13): MIFARE DESFire over libnfc. Its header needs
// <nfc/nfc.h> first; it declares no other dependency.
#include <nfc/nfc.h>
#include <freefare.h>
