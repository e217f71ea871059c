'use strict';
// redactUri(uri): the URI as it may be shown or written anywhere (messages, summary.json, logs):
// the password as *** (the user stays: it says who connected), and the URI options that carry
// secrets (tlsCertificateKeyFilePassword, authMechanismProperties' AWS_SESSION_TOKEN, any
// *password* / *secret* / *token* option) as ***.
// Text, not a URL parser: it must also mask what no parser accepts (a usage error echoes the URI
// the user typed, e.g. mongodb://root:p@ss@host/ with an unescaped @, or a password with a /).
// Hosts never hold an @, so the user information ends at the last @ of the URI: a password typed
// with an unescaped ? # / : % or @ is masked whole (a query holding an @ is masked with it: more
// hidden, never less), as lib/common.sh redact_secrets does.
// The scheme is optional (root:pw@host/ is refused, and echoed); a scheme's // is no password.
const USERINFO = /^((?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?)([^:@/?]*):(?!\/\/).*@/s;
const SECRET_OPTION = /([?&](?:[^=&]*(?:password|secret|token)[^=&]*|authMechanismProperties)=)[^&#]*/gi;
function redactUri(uri) {
  return String(uri).replace(USERINFO, '$1$2:***@').replace(SECRET_OPTION, '$1***');
}

// redactText(text): every mongodb:// or mongodb+srv:// URI inside a message redacted (a driver
// or shell message may quote the URI it was given).
function redactText(text) {
  return String(text).replace(/mongodb(?:\+srv)?:\/\/\S+/g, (u) => redactUri(u));
}

module.exports = { redactUri, redactText };
