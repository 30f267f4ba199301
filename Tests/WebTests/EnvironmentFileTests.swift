import Testing
import Web

/// The env file is read as systemd's `EnvironmentFile=` reads it, and what systemd would take
/// quietly against a person's meaning is reported.
@Suite struct EnvironmentFileTests {
    /// Found by the env-file fuzz target: read by `Character`, a closing quote after a
    /// prepending mark (U+070F joins the character after it) went unseen, the quote stayed open
    /// and the lines after it were taken into the value. systemd reads bytes.
    @Test func aQuoteAfterAPrependingMarkStillCloses() {
        let mark = "\u{070F}"
        let file = EnvironmentFile(text: "NAME=\"x" + mark + "\"\nOTHER=1\nTHIRD=" + mark + "\"")
        let third = file.values["THIRD"]
        #expect(file.values["NAME"] == "x" + mark)
        #expect(file.values["OTHER"] == "1")
        #expect(third == mark + "\"")
        #expect(EnvironmentFile(text: "A=\u{0301}=b").values["A"] == "\u{0301}=b", "the first = is the split")
    }

    @Test func plainSettingsCommentsAndBlankLines() {
        let file = EnvironmentFile(
            text: """
                # the tenant
                ; also a comment
                AUTH0_DOMAIN=https://tenant.example.auth0.com

                  LOG_LEVEL = info\t
                AUTH0_SCOPE=openid profile email offline_access
                """)
        #expect(file.problems.isEmpty, "\(file.problems)")
        #expect(file.values["AUTH0_DOMAIN"] == "https://tenant.example.auth0.com")
        #expect(file.values["LOG_LEVEL"] == "info")
        // Unquoted, inner spaces are kept (a shell would run `profile`).
        #expect(file.values["AUTH0_SCOPE"] == "openid profile email offline_access")
    }

    /// A file saved with Windows line ends reads the same ("\r\n" is one Character in Swift).
    @Test func crlfLineEndsAreLineEnds() {
        let file = EnvironmentFile(text: "# settings\r\nLOG_LEVEL=info\r\nAUTH0_SCOPE=openid profile\r\n")
        #expect(file.problems.isEmpty, "\(file.problems)")
        #expect(file.values == ["LOG_LEVEL": "info", "AUTH0_SCOPE": "openid profile"])
    }

    /// The example's `AUTH0_LOGOUT=v2   # or oidc` passed a shell check and stopped the service.
    @Test func aTrailingCommentIsPartOfTheValueToSystemdAndIsReported() {
        let file = EnvironmentFile(text: "AUTH0_LOGOUT=v2   # or oidc\nSECRET_HINT=abc#def\n")
        #expect(file.values["AUTH0_LOGOUT"] == "v2   # or oidc")
        #expect(file.problems.count == 1)
        #expect(file.problems.first?.hasPrefix("line 1: AUTH0_LOGOUT: the value ends with a comment") == true)
        #expect(file.values["SECRET_HINT"] == "abc#def")  // no space before #: a value, not a comment
    }

    @Test func quotesAndBackslashesAsSystemdReadsThem() {
        let file = EnvironmentFile(
            text: #"""
                SINGLE='a "b" \n # c'
                DOUBLE="say \"hi\" \\ \$HOME \n"
                ESCAPED=one\ two\\three
                CONTINUED=first \
                second
                SPANNING="line one
                line two"
                """#)
        #expect(file.problems.isEmpty, "\(file.problems)")
        #expect(file.values["SINGLE"] == #"a "b" \n # c"#)
        #expect(file.values["DOUBLE"] == #"say "hi" \ $HOME \n"#)
        #expect(file.values["ESCAPED"] == #"one two\three"#)
        #expect(file.values["CONTINUED"] == "first second")
        #expect(file.values["SPANNING"] == "line one\nline two")
    }

    /// Found by the env-file fuzz target: a quoted value spanning lines lost the spaces before
    /// its line break (the line was trimmed before its value was read); systemd keeps them.
    @Test func spacesBeforeALineBreakInsideQuotesAreKept() {
        let file = EnvironmentFile(text: "SPANNING=\"one  \ntwo\"   \nPLAIN=value   ")
        #expect(file.values["SPANNING"] == "one  \ntwo")
        #expect(file.values["PLAIN"] == "value")
    }

    @Test func namesExportsOpenQuotesAndRepeatsAreReported() {
        let file = EnvironmentFile(
            text: """
                export LOG_LEVEL=debug
                9LIVES=no
                just some words
                LOG_LEVEL=info
                LOG_LEVEL=warning
                AFTER="quoted" trailing
                OPEN="never closed
                """)
        #expect(file.values["LOG_LEVEL"] == "warning")
        #expect(file.problems.contains { $0.hasPrefix("line 1: the text before \"=\" is not a setting name") })
        #expect(file.problems.contains { $0.contains("write LOG_LEVEL=") })
        #expect(file.problems.contains { $0.hasPrefix("line 2: the text before \"=\" is not a setting name") })
        #expect(file.problems.contains { $0.hasPrefix("line 3:") && $0.contains("not NAME=value") })
        #expect(file.problems.contains { $0 == "line 5: LOG_LEVEL is set twice; the last one wins" })
        #expect(file.problems.contains { $0 == "line 6: AFTER: text after the closing quote" })
        #expect(file.problems.contains { $0.hasPrefix("line 7: OPEN: a quote or a continued line is still open") })
    }

    /// The fifth review's finding 4: a problem quoted the line or the value (40 characters of each
    /// line of a PEM key pasted without quotes, 60 of a secret followed by a comment). No problem
    /// quotes any of a file's text now: the line's number, the setting and lengths.
    @Test func noProblemQuotesAValueOrALine() {
        let secret = "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0"
        let pemLines = ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7qLmZ1c0nQz", "Xk4uQ1p2N8Zs0aPq==", "a=b"]
        let file = EnvironmentFile(
            text: """
                AUTH0_SECRET=\(secret)   # the new one
                CLIENT_ASSERTION_KEY=-----BEGIN PRIVATE KEY-----
                \(pemLines.joined(separator: "\n"))
                -----END PRIVATE KEY-----
                """)
        #expect(file.problems.count == 6, "\(file.problems)")
        let said = file.problems.joined(separator: "\n")
        for text in [secret, "BEGIN PRIVATE", "END PRIVATE"] + pemLines {
            for start in stride(from: 0, to: max(1, text.count - 6), by: 3) {
                let piece = String(text.dropFirst(start).prefix(6))
                #expect(!said.contains(piece), "\(piece) of \(text.prefix(12))… printed:\n\(said)")
            }
        }
        #expect(said.contains("line 1: AUTH0_SECRET: the value ends with a comment after its first 64 characters"))
        #expect(said.contains("line 2: CLIENT_ASSERTION_KEY: a key of several lines without quotes"))
        for line in 3...6 { #expect(said.contains("line \(line): a line of CLIENT_ASSERTION_KEY's key")) }
        #expect(file.values["a"] == "b", "a key's line that is NAME=value is one to systemd too")
    }
}
