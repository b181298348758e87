// OpenSSL's libcrypto through its EVP interface only: the low-level AES_* and DES_* calls are
// deprecated in OpenSSL 3 and would draw warnings.
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/err.h>
