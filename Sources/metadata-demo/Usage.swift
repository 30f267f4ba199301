import FoundationEssentials

/// `metadata-demo --help` (or `help`, `-h`): what the program does and its commands, on standard
/// output, starting nothing.
enum Usage {
    static let text = """
        usage: metadata-demo [--env-file FILE] [COMMAND]

        With no command, serves the site as a FastCGI worker (under systemd: metadata-demo@N.service).

        Commands:
          check-config          check every setting, the templates, the provider and the session ledger
          settings              list every setting with its value in effect and where it came from
          auth0 plan|apply      what the Auth0 tenant must hold for this site, compared with what it
                                holds; apply makes it so (AUTH0_MANAGEMENT_CLIENT_ID), deleting nothing
          publish-static DIR    write the static files under their fingerprinted names for nginx
          new-client-key [--certificate FILE [--name NAME] [--days N]]
                                a new RSA key for CLIENT_ASSERTION_KEY or REQUEST_OBJECT_KEY (PEM)
          new-assertion-key     a new P-256 key for IDENTITY_ASSERTION_KEY (PEM)
          new-dpop-key          a new P-256 key for DPOP_KEY (PEM)
          help                  this text

        --env-file FILE reads settings as systemd's EnvironmentFile= does, over the environment.
        The guide: /usr/share/doc/metadata-demo/README.md; the manual: man metadata-demo.

        """

    /// True when `arguments` ask for this text.
    static func isAsked(_ arguments: [String]) -> Bool {
        ["help", "--help", "-h"].contains(arguments.first ?? "")
    }
}
