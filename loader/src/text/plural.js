'use strict';
// plural(n, word): "1 client", "2 clients" (and "1 thread", "4 threads"): what the loader says
// about counts ("1 clients", "3 time(s)" read as unfinished).
const plural = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

module.exports = { plural };
