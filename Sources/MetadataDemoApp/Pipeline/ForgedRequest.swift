import Auth0Web
import Web

/// Refusals of POSTs that did not come from this site's own pages.
struct ForgedRequest: HTTPResponseError {
    let status = 403
    let wordsKey = "error.forged_form"
}
