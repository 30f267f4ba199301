import Foundation
import Testing

/// GnuTLS comes into every program that links libcurl (Debian's libcurl needs librtmp, which needs
/// GnuTLS) and sets itself up as it loads unless the program answers 1 to its question. Nothing
/// here uses it: the answer saves the worker the memory of a TLS library it never calls.
struct GnuTLSSetUpTests {
    /// GnuTLS asks through the dynamic linker's global scope, as `dlsym(RTLD_DEFAULT, …)` does:
    /// its own weak answer (0) is found unless the program's is exported ahead of it.
    @Test func gnuTLSFindsTheProgramsAnswerToSkipItsSetUp() throws {
        let found = try #require(dlsym(nil, "_gnutls_global_init_skip"))  // nil: RTLD_DEFAULT
        let answer = unsafeBitCast(found, to: (@convention(c) () -> Int32).self)
        #expect(answer() == 1)
    }
}
