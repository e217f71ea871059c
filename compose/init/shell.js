// ./run.sh shell [service]: <shell> --nodb --shell /lab/init/shell.js inside that container (mongosh,
// or the legacy mongo shell of the 3.6/4.0 images: see lab.js).
// Logs in as root with the password read from the mounted secret file (never a command-line
// argument), then leaves the user at the interactive prompt (`db` is the test database).
load('/lab/init/lab.js');
db = openConnection('localhost', { user: 'root', password: readSecret('root-password'), authSource: 'admin' }).getDB('test');
print('connected to ' + LAB.port + ' on this container as root; try sh.status() or rs.status()');
