#!/usr/bin/env node
'use strict';
// The comparison report (issue 11): see report/README.md. ./run.sh report calls exactly this.
process.exitCode = require('../src/cli').main(process.argv.slice(2));
