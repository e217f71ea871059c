'use strict';
// wrapLine, wrapProse, WIDTH: the lab's one wrap (common/text.js), where the loader's files have
// always found it. A word longer than a line is split across lines there, never cut.
const { wrapLine, wrapProse, columns, WIDTH } = require('../../../common/text');

module.exports = { wrapLine, wrapProse, columns, WIDTH };
