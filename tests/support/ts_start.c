/*
 * tests/support/ts_start.c: a shorter start for every suite's program. Test
 * code only; linked into each suite's executable itself (not from an archive),
 * with the symbol below exported (tests/CMakeLists.txt, ff_add_test).
 *
 * Criterion starts a suite's program again for every test, and each start
 * initialises libgit2 (criterion_initialize). Debian's libgit2 is built on
 * mbed TLS, whose initialisation reads and parses the system's whole CA bundle
 * (/etc/ssl/certs/ca-certificates.crt, about 140 certificates): 15-20% of the
 * CPU a test's start takes on this project's machines, measured with perf. No
 * suite opens a TLS connection, so the executable gives its own definition
 * of the one function that reads the bundle, found before mbed TLS's: it
 * reads nothing and says the file could not be read, which libgit2 takes as
 * "no certificates" (it loads them only for HTTPS remotes).
 *
 * Where libgit2 is built on another TLS library the definition is never
 * called and changes nothing. It must not be used for anything else.
 */

/* mbed TLS's MBEDTLS_ERR_X509_FILE_IO_ERROR ("read or write of file failed"). */
#define TS_X509_FILE_IO_ERROR (-0x2900)

int mbedtls_x509_crt_parse_file(void *chain, const char *path);

int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
    (void)chain;
    (void)path;
    return TS_X509_FILE_IO_ERROR;
}
