import CGnuTLS
