'use strict';
// runErrorReason(e) -> the sentence a run that stopped on e records and prints. Our own errors are
// plain Errors holding a full sentence; a driver's keeps its class name. A server that requires
// authentication and got none answered the first command (the setup's drop) with code 13,
// Unauthorized, "Command drop requires authentication": said as what to give instead, and a user
// without the privileges ("not authorized on lab to execute command ...") as what is missing.
// Code and name: MongoDB src/mongo/base/error_codes.yml (Unauthorized: 13).
function runErrorReason(e) {
  if (e.name === 'Error') return e.message;
  const unauthorized = e.code === 13 || e.codeName === 'Unauthorized';
  if (unauthorized && /requires authentication/i.test(e.message)) {
    return `the server requires authentication and none was given (server: ${e.message}): give the user and password in --uri (mongodb://USER:PASSWORD@host/, with : / ? # [ ] @ % in them percent-encoded) or --username with --password-file`;
  }
  if (unauthorized) {
    return `the user lacks a privilege this run needs (server: ${e.message}): it reads and writes the experiment's database and drops its collection (readWrite on that database), and reads serverStatus (clusterMonitor)`;
  }
  return `${e.name}: ${e.message}`;
}

module.exports = { runErrorReason };
