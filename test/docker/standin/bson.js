'use strict';
// BSON from the loader's locked dependencies (loader/package-lock.json), the same library the
// driver uses: the stand-in has no package of its own.
module.exports = require('../../../loader/node_modules/bson');
