// ./run.sh shell [service]: mongosh --nodb --shell /lab/init/shell.js inside that container.
// Logs in as root with the password read from the mounted secret file (never a command-line
// argument), then leaves the user at the interactive prompt (`db` is the test database).
load('/lab/init/lab.js');
db = connect(uri('localhost', { user: 'root', password: readSecret('root-password') }));
print('connected to ' + LAB.port + ' on this container as root; try sh.status() or rs.status()');
