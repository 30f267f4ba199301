#ifndef SKIP_GNUTLS_INIT_H
#define SKIP_GNUTLS_INIT_H

// Debian's libcurl links librtmp, which links GnuTLS. GnuTLS initialises itself as it loads
// (a library constructor: its crypto back end, p11-kit's modules) unless the program defines
// this function to answer 1, as GnuTLS's GNUTLS_SKIP_GLOBAL_INIT macro does. Nothing here
// calls GnuTLS: libcurl speaks TLS through OpenSSL and is only let use http and https.
int _gnutls_global_init_skip(void);

#endif
