'use strict';
// durationMs, durationText: the lab's one duration grammar and formatter (common/text.js, beside
// lib/common.sh's parse_duration), where the loader's files have always found them.
const { durationMs, durationText } = require('../../../common/text');

module.exports = { durationMs, durationText };
