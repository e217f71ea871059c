'use strict';
// The lab's one name grammar, for every name that becomes a results folder or names one: an
// experiment (experiments/NAME.yaml and its name:), a run's engine label (--engine), a group, a
// profile, a comparison's id and its sides (./run.sh compare). A plain folder name: letters,
// digits, . _ -, not starting with . _ or - (a hidden folder, an option). lib/common.sh is_name
// is the same grammar in bash; both are run over test/vectors/names.tsv.
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
// The grammar as a message says it.
const NAME_WORDS = 'letters, digits, . _ -';

// isName(text) -> true when text is such a name.
const isName = (text) => typeof text === 'string' && NAME.test(text);

// Folder names a run's engine label (results/<experiment>/<engine>/) must not take: `report` is
// the report's own folder, which it never reads as runs (report/src/read.js), and `latest` the link
// to the newest run. lib/compare.sh keeps the same list for compare's side names (bash).
const RESERVED_NAMES = ['report', 'latest'];

module.exports = { NAME, NAME_WORDS, isName, RESERVED_NAMES };
